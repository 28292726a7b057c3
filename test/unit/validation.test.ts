import { z } from 'zod';
import { fieldErrors } from '../../src/schemas/field-errors';

describe('field errors of a discriminated union', () => {
  const schema = z.discriminatedUnion('customerType', [
    z.object({ customerType: z.literal('INDIVIDUAL'), fullName: z.string().max(3) }),
    z.object({ customerType: z.literal('BUSINESS'), legalName: z.string() }),
  ]);
  const errorsFor = (value: unknown) => {
    const result = schema.safeParse(value, { reportInput: true });
    return result.success ? [] : fieldErrors(result.error).map((e) => `${e.field}:${e.constraint}`);
  };

  test('a missing discriminator is required, an unknown one is an enum error', () => {
    expect(errorsFor({})).toEqual(['customerType:required']);
    expect(errorsFor({ customerType: 'ROBOT' })).toEqual(['customerType:enum']);
  });

  test('a known discriminator reports the fields of its branch', () => {
    expect(errorsFor({ customerType: 'INDIVIDUAL', fullName: 'toolong' })).toEqual(['fullName:maxLength']);
    expect(errorsFor({ customerType: 'BUSINESS' })).toEqual(['legalName:required']);
  });
});

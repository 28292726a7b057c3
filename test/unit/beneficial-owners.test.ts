import { ownerIdentityProblems } from '../../src/contexts/customers/domain/beneficial-owners';

const fieldsOf = (info: Parameters<typeof ownerIdentityProblems>[0]) => ownerIdentityProblems(info).map((p) => `${p.field}:${p.constraint}`);

describe('ownerIdentityProblems', () => {
  test('a US person with a well-formed SSN or ITIN issued in the US passes', () => {
    expect(fieldsOf({ nationality: 'US', idType: 'SSN', identifier: '123-45-6789', countryOfIssuance: 'US' })).toEqual([]);
    expect(fieldsOf({ nationality: 'US', idType: 'ITIN', identifier: '912-70-1234' })).toEqual([]);
  });

  test('US persons (by nationality or by address) may only use SSN or ITIN', () => {
    expect(fieldsOf({ nationality: 'US', idType: 'NON_US_TAX_ID', identifier: 'X1' })).toEqual(['personalInfo.idType:usTaxId']);
    expect(fieldsOf({ nationality: 'DE', address: { country: 'US' }, idType: 'NON_US_TAX_ID', identifier: 'X1' })).toEqual(['personalInfo.idType:usTaxId']);
    expect(fieldsOf({ nationality: 'DE', address: { country: 'DE' }, idType: 'NON_US_TAX_ID', identifier: 'X1' })).toEqual([]);
  });

  test('EIN is never accepted for a person', () => {
    expect(fieldsOf({ nationality: 'DE', idType: 'EIN', identifier: '12-3456789' })).toEqual(['personalInfo.idType:enum']);
    expect(fieldsOf({ nationality: 'US', idType: 'EIN', identifier: '12-3456789' })).toEqual(['personalInfo.idType:enum']);
  });

  test('SSN and ITIN formats', () => {
    expect(fieldsOf({ nationality: 'US', idType: 'SSN', identifier: '123456789' })).toEqual(['personalInfo.identifier:pattern']);
    expect(fieldsOf({ nationality: 'US', idType: 'ITIN', identifier: '123-45-6789' })).toEqual(['personalInfo.identifier:pattern']);
  });

  test('an unchanged identifier (undefined) is not re-checked', () => {
    expect(fieldsOf({ nationality: 'US', idType: 'SSN' })).toEqual([]);
  });

  test('SSN and ITIN are issued by the US only; the issuing country may be left out', () => {
    expect(fieldsOf({ nationality: 'US', idType: 'SSN', identifier: '123-45-6789', countryOfIssuance: 'MX' })).toEqual(['personalInfo.countryOfIssuance:enum']);
    expect(fieldsOf({ nationality: 'US', idType: 'ITIN', identifier: '912-70-1234', countryOfIssuance: null })).toEqual([]);
  });

  test('every problem is reported at once', () => {
    expect(fieldsOf({ nationality: 'US', idType: 'SSN', identifier: 'nope', countryOfIssuance: 'CA' })).toEqual([
      'personalInfo.identifier:pattern',
      'personalInfo.countryOfIssuance:enum',
    ]);
  });
});

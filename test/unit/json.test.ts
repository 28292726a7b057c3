import { stringifyWithBigInt } from '../../src/domain/json';

describe('stringifyWithBigInt', () => {
  test('writes 2^53 + 1 exactly, as a JSON integer and not a string', () => {
    expect(stringifyWithBigInt(9_007_199_254_740_993n)).toBe('9007199254740993');
    expect(stringifyWithBigInt({ amount: 9_007_199_254_740_993n })).toBe('{"amount":9007199254740993}');
  });

  test('works nested in objects and arrays, and for negatives and zero', () => {
    const value = { tx: { lines: [{ amount: -9_007_199_254_740_993n }, { amount: 0n }], total: 123_456_789_012_345_678_901n } };
    expect(stringifyWithBigInt(value)).toBe('{"tx":{"lines":[{"amount":-9007199254740993},{"amount":0}],"total":123456789012345678901}}');
  });

  test('the output is valid JSON whose numbers carry every digit', () => {
    const text = stringifyWithBigInt({ a: [9_007_199_254_740_993n] });
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    expect(text).not.toContain('"9007199254740993"');
    expect(text).not.toContain('9007199254740992');
  });

  test('leaves other values as JSON.stringify would', () => {
    const plain = { s: 'x', n: 1.5, b: true, z: null, d: new Date(0), skip: undefined, arr: [1, 'two'] };
    expect(stringifyWithBigInt(plain)).toBe(JSON.stringify(plain));
  });
});

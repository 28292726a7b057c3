import { formatMinor, MAX_AMOUNT, parseMinor, sum, toMinor } from '../../src/domain/money';

describe('parseMinor', () => {
  test.each(['1.5', '01', '', '1e3', ' 1', '1 ', '+1', '--1', '-', '0x10', '1_000', '١'])('rejects %j', (text) => {
    expect(() => parseMinor(text)).toThrow(RangeError);
  });

  test('accepts plain integers, negative ones and zero', () => {
    expect(parseMinor('0')).toBe(0n);
    expect(parseMinor('42')).toBe(42n);
    expect(parseMinor('-42')).toBe(-42n);
  });

  test('parses digit strings beyond 2^53 exactly', () => {
    expect(parseMinor('9007199254740993')).toBe(9_007_199_254_740_993n);
    expect(parseMinor('123456789012345678901234567890')).toBe(123_456_789_012_345_678_901_234_567_890n);
    expect(parseMinor(MAX_AMOUNT.toString())).toBe(MAX_AMOUNT);
  });
});

describe('toMinor', () => {
  test('passes bigints through unchanged', () => {
    expect(toMinor(9_007_199_254_740_993n)).toBe(9_007_199_254_740_993n);
  });

  test('parses strings with the same rules as parseMinor', () => {
    expect(toMinor('9007199254740993')).toBe(9_007_199_254_740_993n);
    expect(() => toMinor('1.5')).toThrow(RangeError);
    expect(() => toMinor('01')).toThrow(RangeError);
    expect(() => toMinor('')).toThrow(RangeError);
    expect(() => toMinor('1e3')).toThrow(RangeError);
  });

  test('accepts safe integer numbers', () => {
    expect(toMinor(0)).toBe(0n);
    expect(toMinor(-250)).toBe(-250n);
    expect(toMinor(Number.MAX_SAFE_INTEGER)).toBe(9_007_199_254_740_991n);
  });

  test.each([1.5, Number.MAX_SAFE_INTEGER + 1, -(2 ** 60), Number.NaN, Number.POSITIVE_INFINITY, 1e21])('rejects the unsafe number %p', (value) => {
    expect(() => toMinor(value)).toThrow(RangeError);
  });
});

describe('sum', () => {
  test('adds bigints exactly', () => {
    expect(sum([])).toBe(0n);
    expect(sum([9_007_199_254_740_992n, 1n, -3n])).toBe(9_007_199_254_740_990n);
  });
});

describe('formatMinor', () => {
  test('0 decimals: the integer itself', () => {
    expect(formatMinor(0n, 0)).toBe('0');
    expect(formatMinor(1_234n, 0)).toBe('1234');
    expect(formatMinor(-1_234n, 0)).toBe('-1234');
  });

  test('2 decimals', () => {
    expect(formatMinor(12_345n, 2)).toBe('123.45');
    expect(formatMinor(100n, 2)).toBe('1.00');
    expect(formatMinor(0n, 2)).toBe('0.00');
  });

  test('2 decimals: small amounts are zero-padded', () => {
    expect(formatMinor(5n, 2)).toBe('0.05');
    expect(formatMinor(50n, 2)).toBe('0.50');
  });

  test('8 decimals', () => {
    expect(formatMinor(1n, 8)).toBe('0.00000001');
    expect(formatMinor(2_100_000_000_000_000n, 8)).toBe('21000000.00000000');
    expect(formatMinor(123_456_789n, 8)).toBe('1.23456789');
  });

  test('negatives keep the sign in front of the padded digits', () => {
    expect(formatMinor(-5n, 2)).toBe('-0.05');
    expect(formatMinor(-12_345n, 2)).toBe('-123.45');
    expect(formatMinor(-1n, 8)).toBe('-0.00000001');
  });

  test('exact beyond 2^53', () => {
    expect(formatMinor(9_007_199_254_740_993n, 2)).toBe('90071992547409.93');
  });
});

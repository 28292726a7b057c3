import { currency, currencyView, findCurrency, SUPPORTED_CURRENCY_CODES } from '../../src/domain/currencies';

describe('currencies', () => {
  test.each([
    ['USD', 2],
    ['EUR', 2],
    ['BTC', 8],
    ['USDC', 6],
    ['VND', 0],
    ['BDT', 2],
    ['RWF', 0],
    ['UGX', 0],
  ])('%s has %i decimals', (code, decimals) => {
    expect(currency(code).decimals).toBe(decimals);
  });

  test('kinds', () => {
    expect(currency('BTC').kind).toBe('CRYPTO');
    expect(currency('USDC').kind).toBe('CRYPTO');
    expect(currency('USD').kind).toBe('FIAT');
  });

  test('currencyView is exactly { code, name, symbol, decimals }', () => {
    expect(currencyView('USD')).toEqual({ code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 });
    expect(Object.keys(currencyView('BTC')).sort()).toEqual(['code', 'decimals', 'name', 'symbol']);
    expect(currencyView('BTC')).toEqual({ code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8 });
  });

  test('an unknown code throws, and codes are case-sensitive', () => {
    expect(() => currency('XYZ')).toThrow('Unsupported currency XYZ');
    expect(() => currencyView('XYZ')).toThrow('Unsupported currency XYZ');
    expect(() => currency('usd')).toThrow();
    expect(() => currency('')).toThrow();
  });

  test('findCurrency returns undefined rather than throwing', () => {
    expect(findCurrency('XYZ')).toBeUndefined();
    expect(findCurrency('VND')?.decimals).toBe(0);
  });

  test('supported codes are unique ISO-like codes, each resolvable', () => {
    expect(new Set(SUPPORTED_CURRENCY_CODES).size).toBe(SUPPORTED_CURRENCY_CODES.length);
    for (const code of SUPPORTED_CURRENCY_CODES) {
      expect(code).toMatch(/^[A-Z]{3,4}$/);
      const c = currency(code);
      expect(c.code).toBe(code);
      expect(Number.isInteger(c.decimals) && c.decimals >= 0 && c.decimals <= 18).toBe(true);
    }
    expect(SUPPORTED_CURRENCY_CODES).toEqual(expect.arrayContaining(['USD', 'BTC', 'USDC', 'VND']));
  });
});

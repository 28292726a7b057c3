import {
  conflictingCurrencies,
  defaultCurrencies,
  defaultRegionCode,
  isKnownCurrency,
  unsupportedCurrencies,
} from '../../src/contexts/customers/domain/customer-currencies';

describe('currencies one customer may hold together', () => {
  test.each([
    // region, currencies, conflicting
    ['US', ['USD', 'EUR'], []],
    ['US', ['USD', 'GBP'], []],
    ['US', ['USD', 'EUR', 'GBP'], ['EUR', 'GBP']],
    ['MX', ['MXN', 'EUR', 'GBP', 'USDC'], ['EUR', 'GBP']],
    [null, ['EUR', 'GBP'], ['EUR', 'GBP']],
    ['EU', ['EUR', 'USD', 'USDC', 'BTC'], []],
    ['EU', ['EUR', 'GBP'], ['GBP']],
    ['DE', ['GBP'], ['GBP']],
    ['NO', ['EUR'], []],
    ['GB', ['GBP', 'USD'], []],
    ['GB', ['GBP', 'EUR'], ['EUR']],
    ['GB', ['EUR'], ['EUR']],
    ['US', [], []],
    ['US', ['USD', 'USDC', 'BTC', 'MXN'], []],
  ])('region %s with %j: conflicting %j', (region, currencies, expected) => {
    expect(conflictingCurrencies(region, currencies)).toEqual(expected);
  });

  test('a repeated currency is named once', () => {
    expect(conflictingCurrencies('EU', ['GBP', 'GBP'])).toEqual(['GBP']);
  });
});

describe('defaults of a new customer', () => {
  test.each([
    ['US', undefined, 'US'],
    ['EU', 'DE', 'EU'],
    ['UK', undefined, 'GB'],
    ['LATAM', 'MX', 'MX'],
    ['APAC', undefined, null],
    ['AFRICA', 'XX', null],
  ] as const)('platform region %s, customer country %s: region %s', (platformRegion, country, expected) => {
    expect(defaultRegionCode(platformRegion, country)).toBe(expected);
  });

  test("currencies default to the platform's, minus those the region cannot hold", () => {
    expect(defaultCurrencies(['USD', 'EUR'], 'US')).toEqual(['USD', 'EUR']);
    expect(defaultCurrencies(['USD', 'EUR', 'GBP'], 'US')).toEqual(['USD']);
    expect(defaultCurrencies(['USD', 'EUR', 'GBP'], 'EU')).toEqual(['USD', 'EUR']);
    expect(defaultCurrencies(['USD', 'EUR', 'GBP'], 'GB')).toEqual(['USD', 'GBP']);
  });
});

describe('currency codes', () => {
  test('known: ISO 4217 fiat and crypto tickers of the currency table', () => {
    for (const code of ['USD', 'EUR', 'GBP', 'MXN', 'VND', 'BTC', 'USDC', 'USDB']) expect(isKnownCurrency(code)).toBe(true);
    for (const code of ['usd', 'XYZ', 'JPYX', '', 5, null]) expect(isKnownCurrency(code)).toBe(false);
  });

  test('unsupported: requested but not offered by the platform', () => {
    expect(unsupportedCurrencies(['USD', 'EUR', 'MXN'], ['USD', 'EUR'])).toEqual(['MXN']);
    expect(unsupportedCurrencies(['USD'], ['USD'])).toEqual([]);
  });
});

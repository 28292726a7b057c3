import { isActiveFeeConfig, mergeFeeConfigs, unsupportedFeeSourceCurrencies, type FeeConfig } from '../../src/contexts/platforms/domain/fee-configs';

const fee = (feeType: string, sourceCurrency: string, variableFeeBps: number, amount: number): FeeConfig => ({
  feeType,
  sourceCurrency,
  variableFeeBps,
  fixedFee: { amount, currency: sourceCurrency },
});

describe('mergeFeeConfigs: a merge-by-key upsert on (feeType, sourceCurrency)', () => {
  const a = fee('CROSS_CURRENCY_TRANSACTION', 'USD', 30, 100);
  const b = fee('OTHER_FEE', 'USD', 10, 0);

  test('adds new keys and replaces the config of an existing key, keeping the others', () => {
    expect(mergeFeeConfigs([a], [b])).toEqual([a, b]);
    const a2 = fee('CROSS_CURRENCY_TRANSACTION', 'USD', 50, 0);
    expect(mergeFeeConfigs([a, b], [a2])).toEqual([a2, b]);
  });

  test('an empty update changes nothing', () => {
    expect(mergeFeeConfigs([a, b], [])).toEqual([a, b]);
  });

  test('zero bps and a zero fixed fee remove the config with that key, and add nothing for a new key', () => {
    expect(mergeFeeConfigs([a, b], [fee('CROSS_CURRENCY_TRANSACTION', 'USD', 0, 0)])).toEqual([b]);
    expect(mergeFeeConfigs([b], [fee('CROSS_CURRENCY_TRANSACTION', 'USD', 0, 0)])).toEqual([b]);
  });

  test('only a fee of zero in both parts is inactive', () => {
    expect(isActiveFeeConfig(fee('X', 'USD', 0, 0))).toBe(false);
    expect(isActiveFeeConfig(fee('X', 'USD', 0, 1))).toBe(true);
    expect(isActiveFeeConfig(fee('X', 'USD', 1, 0))).toBe(true);
  });
});

describe('unsupportedFeeSourceCurrencies', () => {
  test('names each known currency other than USD; unknown codes and malformed entries are left to the schema', () => {
    const list = [{ sourceCurrency: 'USD' }, { sourceCurrency: 'EUR' }, { sourceCurrency: 'XYZ' }, null, 'x', { sourceCurrency: 7 }, { sourceCurrency: 'MXN' }];
    expect(unsupportedFeeSourceCurrencies(list, ['USD', 'EUR', 'MXN']).map((e) => `${e.field}:${e.constraint}`)).toEqual([
      'feeConfigs.1.sourceCurrency:supportedCurrency',
      'feeConfigs.6.sourceCurrency:supportedCurrency',
    ]);
    expect(unsupportedFeeSourceCurrencies(list, ['USD', 'EUR', 'MXN']).every((e) => JSON.stringify(e.hint) === JSON.stringify({ enum: ['USD'] }))).toBe(true);
    expect(unsupportedFeeSourceCurrencies(undefined, ['USD'])).toEqual([]);
    expect(unsupportedFeeSourceCurrencies({ sourceCurrency: 'EUR' }, ['USD', 'EUR'])).toEqual([]);
  });
});

import { findCurrency } from '../../src/domain/currencies';
import { DomainError } from '../../src/domain/errors';
import {
  assertLookupUsable,
  corridorPreference,
  normalizeUmaAddress,
  requiredPayerDataFields,
  type LookupRecord,
} from '../../src/contexts/payments/domain/lookups';
import { corridorTerms } from '../../src/contexts/payments/domain/pricing/corridors';
import { NO_FEE } from '../../src/contexts/payments/domain/pricing/platform-fees';
import { computeFees, convertDown, minorRate } from '../../src/contexts/payments/domain/pricing/quote-math';
import { rational } from '../../src/contexts/payments/domain/pricing/rates';
import { NETWORK_FEES, type NetworkFee } from '../../src/contexts/payments/domain/pricing/data/network-fees';
import {
  checkBitcoinAddress,
  checkWithdrawalAddress,
  estimateWithdrawalFee,
  networkFeeIn,
  networksFor,
  WITHDRAWAL_CURRENCIES,
  WITHDRAWAL_NETWORKS,
  withdrawalPairProblems,
} from '../../src/contexts/payments/domain/pricing/withdrawal-fees';
import { RAIL_LIFETIME_SECONDS } from '../../src/contexts/payments/domain/pricing/data/corridors';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const ACCOUNT = 'ExternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965';

const lookup = (over: Partial<LookupRecord> = {}): LookupRecord => ({
  id: 'Lookup:019542f5-b3e7-1d02-0000-000000000009',
  platformId: 'Platform:a',
  kind: 'EXTERNAL_ACCOUNT',
  target: ACCOUNT,
  receivingCurrencies: ['EUR'],
  expiresAt: new Date(NOW.getTime() + 60_000),
  ...over,
});

/** The single field error a refusal carries, as `field:constraint`. */
function refusal(run: () => void): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    const e = err as DomainError;
    expect(e.code).toBe('INVALID_INPUT');
    const errors = e.details!.errors as { field: string; constraint: string }[];
    expect(errors).toHaveLength(1);
    return `${errors[0]!.field}:${errors[0]!.constraint}`;
  }
  throw new Error('expected a refusal');
}

describe('assertLookupUsable', () => {
  const account = { destinationType: 'ACCOUNT' as const, accountId: ACCOUNT };

  test('an unexpired lookup of the same destination on the same platform is usable', () => {
    expect(() => assertLookupUsable(lookup(), { platformId: 'Platform:a', destination: account, now: NOW })).not.toThrow();
    const uma = lookup({ kind: 'UMA_ADDRESS', target: '$bob@uma.example.com', receivingCurrencies: ['USD', 'EUR'] });
    expect(() =>
      assertLookupUsable(uma, { platformId: 'Platform:a', destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$Bob@UMA.example.com' }, now: NOW }),
    ).not.toThrow();
    expect(() =>
      assertLookupUsable(uma, {
        platformId: 'Platform:a',
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$bob@uma.example.com', currency: 'EUR' },
        now: NOW,
      }),
    ).not.toThrow();
  });

  test("a missing lookup and another platform's are refused alike", () => {
    expect(refusal(() => assertLookupUsable(null, { platformId: 'Platform:a', destination: account, now: NOW }))).toBe('lookupId:exists');
    expect(refusal(() => assertLookupUsable(undefined, { platformId: 'Platform:a', destination: account, now: NOW }))).toBe('lookupId:exists');
    expect(refusal(() => assertLookupUsable(lookup(), { platformId: 'Platform:b', destination: account, now: NOW }))).toBe('lookupId:exists');
  });

  test('expired at expiresAt exactly, usable a millisecond before', () => {
    const l = lookup({ expiresAt: NOW });
    expect(refusal(() => assertLookupUsable(l, { platformId: 'Platform:a', destination: account, now: NOW }))).toBe('lookupId:notExpired');
    expect(() => assertLookupUsable(l, { platformId: 'Platform:a', destination: account, now: new Date(NOW.getTime() - 1) })).not.toThrow();
  });

  test('a lookup of another destination, or of another kind, does not fit', () => {
    const otherAccount = { destinationType: 'ACCOUNT' as const, accountId: 'ExternalAccount:00000000-0000-4000-8000-000000000000' };
    expect(refusal(() => assertLookupUsable(lookup(), { platformId: 'Platform:a', destination: otherAccount, now: NOW }))).toBe('lookupId:matchesDestination');
    expect(
      refusal(() => assertLookupUsable(lookup(), { platformId: 'Platform:a', destination: { destinationType: 'UMA_ADDRESS', umaAddress: ACCOUNT }, now: NOW })),
    ).toBe('lookupId:matchesDestination');
    const uma = lookup({ kind: 'UMA_ADDRESS', target: '$bob@uma.example.com' });
    expect(
      refusal(() =>
        assertLookupUsable(uma, { platformId: 'Platform:a', destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$alice@uma.example.com' }, now: NOW }),
      ),
    ).toBe('lookupId:matchesDestination');
    expect(
      refusal(() =>
        assertLookupUsable(uma, { platformId: 'Platform:a', destination: { destinationType: 'ACCOUNT', accountId: '$bob@uma.example.com' }, now: NOW }),
      ),
    ).toBe('lookupId:matchesDestination');
  });

  test("a UMA destination's currency must be one the receiver takes", () => {
    const uma = lookup({ kind: 'UMA_ADDRESS', target: '$bob@uma.example.com', receivingCurrencies: ['EUR'] });
    expect(
      refusal(() =>
        assertLookupUsable(uma, {
          platformId: 'Platform:a',
          destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$bob@uma.example.com', currency: 'MXN' },
          now: NOW,
        }),
      ),
    ).toBe('destination.currency:enum');
  });

  test('UMA addresses compare in lower case', () => {
    expect(normalizeUmaAddress('$Bob.Smith@UMA.Example.com')).toBe('$bob.smith@uma.example.com');
  });
});

describe('requiredPayerDataFields', () => {
  test('FULL_NAME for a cross-border corridor, nothing for a same-currency one', () => {
    expect(requiredPayerDataFields({ corridors: [{ from: 'USD', to: 'EUR' }], counterpartyInformationRequired: false })).toEqual([
      { name: 'FULL_NAME', mandatory: true },
    ]);
    expect(requiredPayerDataFields({ corridors: [{ from: 'EUR', to: 'EUR' }], counterpartyInformationRequired: false })).toEqual([]);
    // Mandatory when any listed corridor needs it.
    expect(
      requiredPayerDataFields({
        corridors: [
          { from: 'EUR', to: 'EUR' },
          { from: 'USD', to: 'EUR' },
        ],
        counterpartyInformationRequired: false,
      }),
    ).toEqual([{ name: 'FULL_NAME', mandatory: true }]);
  });

  test('counterparty information: name, birth date and nationality on every corridor', () => {
    expect(requiredPayerDataFields({ corridors: [{ from: 'USD', to: 'USD' }], counterpartyInformationRequired: true }).map((f) => f.name)).toEqual([
      'FULL_NAME',
      'BIRTH_DATE',
      'NATIONALITY',
    ]);
    expect(requiredPayerDataFields({ corridors: [], counterpartyInformationRequired: true })).toEqual([]);
  });

  test("the receiver's own fields join, mandatory wins, unknown names are dropped, the reference's order", () => {
    const fields = requiredPayerDataFields({
      corridors: [{ from: 'USD', to: 'USD' }],
      counterpartyInformationRequired: false,
      receiverFields: [
        { name: 'EMAIL', mandatory: false },
        { name: 'COUNTRY_OF_RESIDENCE', mandatory: false },
        { name: 'COUNTRY_OF_RESIDENCE', mandatory: true },
        { name: 'FULL_NAME', mandatory: false },
        { name: 'SHOE_SIZE', mandatory: true },
      ],
    });
    expect(fields).toEqual([
      { name: 'FULL_NAME', mandatory: false },
      { name: 'EMAIL', mandatory: false },
      { name: 'COUNTRY_OF_RESIDENCE', mandatory: true },
    ]);
  });
});

describe('corridorPreference', () => {
  test("min and max are what the corridor's smallest and largest quotes deliver after fees", () => {
    const terms = corridorTerms('USD', 'EUR');
    const rate = rational(9172n, 10_000n);
    const pref = corridorPreference({ terms, platformFee: { fixedMinor: 50n, variableBps: 10 }, rate, sendingDecimals: 2, receivingDecimals: 2 })!;
    const k = minorRate(rate, 2, 2);
    const delivered = (s: bigint) => convertDown(s - computeFees(s, terms.serviceFee, { fixedMinor: 50n, variableBps: 10 }).total, k);
    expect(pref.min).toBe(delivered(terms.minSendingMinor) > 0n ? delivered(terms.minSendingMinor) : 1n);
    expect(pref.max).toBe(delivered(terms.maxSendingMinor));
    expect(pref.estimatedExchangeRate).toBe(0.9172);
  });

  test('the minimum is at least 1; a corridor whose largest quote delivers nothing has no preference', () => {
    const terms = { ...corridorTerms('USD', 'EUR'), minSendingMinor: 1n };
    expect(corridorPreference({ terms, platformFee: NO_FEE, rate: rational(1n, 1n), sendingDecimals: 2, receivingDecimals: 2 })!.min).toBe(1n);
    const hopeless = { ...terms, maxSendingMinor: 1n };
    expect(corridorPreference({ terms: hopeless, platformFee: NO_FEE, rate: rational(1n, 1n), sendingDecimals: 2, receivingDecimals: 2 })).toBeUndefined();
  });
});

describe('withdrawal fees', () => {
  test('the table: known currencies, a price for every fee asset the rate table does not price, every network a rail with a quote lifetime', () => {
    for (const network of WITHDRAWAL_NETWORKS) {
      const fee: NetworkFee = NETWORK_FEES[network];
      expect(fee.networkFeeMinor).toBeGreaterThanOrEqual(0n);
      for (const code of fee.currencies) expect(findCurrency(code)?.kind).toBe('CRYPTO');
      if (!findCurrency(fee.feeAsset)) expect(fee.feeAssetUsd).toMatch(/^\d+(\.\d+)?$/);
      expect(RAIL_LIFETIME_SECONDS[network]).toBeGreaterThan(0);
      for (const code of fee.currencies) expect(() => networkFeeIn(network, code)).not.toThrow();
    }
    expect(WITHDRAWAL_NETWORKS).toEqual(
      expect.arrayContaining(['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'TRON', 'PLASMA', 'ARBITRUM', 'SPARK', 'LIGHTNING', 'BITCOIN']),
    );
    expect([...WITHDRAWAL_CURRENCIES].sort()).toEqual(['BTC', 'USDB', 'USDC', 'USDT']);
  });

  test('fees convert into the withdrawal currency, rounded up', () => {
    expect(networkFeeIn('SOLANA', 'USDC')).toBe(2_250n); // 15,000 lamports × $150 / 10^9 = $0.00225
    expect(networkFeeIn('TRON', 'USDT')).toBe(2_680_000n); // 13.4 TRX × $0.20
    expect(networkFeeIn('POLYGON', 'USDC')).toBe(1_040n); // 0.0026 POL × $0.40
    expect(networkFeeIn('BASE', 'USDC')).toBe(1_950n);
    expect(networkFeeIn('BITCOIN', 'BTC')).toBe(1_410n);
    expect(networkFeeIn('SPARK', 'USDB')).toBe(0n);
    expect(networkFeeIn('PLASMA', 'USDT')).toBe(0n);
  });

  test('the estimate: network fee in its asset, total and net in the withdrawal currency', () => {
    expect(estimateWithdrawalFee({ currency: 'USDT', network: 'TRON', amount: 10_000_000n })).toEqual({
      networkFee: 13_400_000n,
      networkFeeAsset: 'TRX',
      applicationFee: 0n,
      totalFee: 2_680_000n,
      netAmount: 7_320_000n,
    });
    expect(estimateWithdrawalFee({ currency: 'USDC', network: 'SOLANA', amount: 1_000_000n, applicationFee: 100n })).toMatchObject({
      totalFee: 2_350n,
      netAmount: 997_650n,
    });
    expect(() => estimateWithdrawalFee({ currency: 'USDT', network: 'TRON', amount: 2_680_000n })).toThrow(
      expect.objectContaining({ code: 'AMOUNT_OUT_OF_RANGE' }),
    );
    expect(() => estimateWithdrawalFee({ currency: 'BTC', network: 'TRON', amount: 1n })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  test('currency/network pairs name the field at fault', () => {
    expect(withdrawalPairProblems('USDC', 'SOLANA')).toEqual([]);
    expect(withdrawalPairProblems('USD', 'SOLANA')).toEqual([expect.objectContaining({ field: 'currency', constraint: 'enum' })]);
    expect(withdrawalPairProblems('USDC', 'DOGE')).toEqual([expect.objectContaining({ field: 'cryptoNetwork', constraint: 'enum' })]);
    expect(withdrawalPairProblems('USDB', 'LIGHTNING')).toEqual([
      expect.objectContaining({ field: 'cryptoNetwork', constraint: 'supportedForCurrency', hint: { enum: ['SPARK'] } }),
    ]);
    expect(networksFor('BTC')).toEqual(['SPARK', 'LIGHTNING', 'BITCOIN']);
  });

  test('Bitcoin addresses: SegWit v0 and v1+, legacy P2PKH/P2SH; anything else refused', () => {
    expect(checkBitcoinAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4').valid).toBe(true);
    expect(checkBitcoinAddress('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0').valid).toBe(true);
    expect(checkBitcoinAddress('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa').valid).toBe(true);
    expect(checkBitcoinAddress('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy').valid).toBe(true);
    // v1 with a bech32 (not bech32m) checksum, a broken checksum, a Solana address.
    expect(checkBitcoinAddress('bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx').valid).toBe(false);
    expect(checkBitcoinAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5').valid).toBe(false);
    expect(checkBitcoinAddress('7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU').valid).toBe(false);
  });

  test('addresses are judged by the network: EVM, Solana, Lightning', () => {
    expect(checkWithdrawalAddress('ETHEREUM', '0x52908400098527886E0F7030069857D2E4169EE7').valid).toBe(true);
    expect(checkWithdrawalAddress('SOLANA', '0x52908400098527886E0F7030069857D2E4169EE7').valid).toBe(false);
    expect(checkWithdrawalAddress('LIGHTNING', 'alice@wallet.example.com').valid).toBe(true);
    expect(checkWithdrawalAddress('LIGHTNING', 'not a destination').valid).toBe(false);
  });
});

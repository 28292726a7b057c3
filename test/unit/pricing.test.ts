import { DomainError } from '../../src/domain/errors';
import { SUPPORTED_CURRENCY_CODES, currency } from '../../src/domain/currencies';
import { MAX_AMOUNT } from '../../src/domain/money';
import { FIAT_ACCOUNT_TYPES } from '../../src/contexts/external-accounts/domain/account-types';
import {
  CHINA_BUSINESS_PURPOSES,
  PURPOSES_OF_PAYMENT,
  allowedPurposesOfPayment,
  assertWithinCorridorLimits,
  corridorTerms,
  destinationRail,
  findCorridorTerms,
  purposeOfPaymentRequired,
  quoteLifetimeSeconds,
} from '../../src/contexts/payments/domain/pricing/corridors';
import { UNITS_PER_USD } from '../../src/contexts/payments/domain/pricing/data/sandbox-rates';
import { RAIL_LIFETIME_SECONDS } from '../../src/contexts/payments/domain/pricing/data/corridors';
import { platformFeeFor } from '../../src/contexts/payments/domain/pricing/platform-fees';
import { computeFees, priceQuote, type PriceQuoteInput } from '../../src/contexts/payments/domain/pricing/quote-math';
import {
  RATE_DATA_VERSION,
  SENDING_CURRENCIES,
  applySpread,
  isSupportedCorridor,
  midRate,
  parseDecimal,
  rationalToNumber,
  receivingCurrencies,
} from '../../src/contexts/payments/domain/pricing/rates';
import { RateBook, sandboxRateSource } from '../../src/contexts/payments/services/rate-book';

const USD = { code: 'USD', decimals: 2 };
const EUR = { code: 'EUR', decimals: 2 };
const NO_FEE = { fixedMinor: 0n, variableBps: 0 };

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
  return undefined;
}

describe('sandbox rates', () => {
  test('a version and an exact decimal string for every currency of the service', () => {
    expect(RATE_DATA_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}\.\d+$/);
    for (const code of SUPPORTED_CURRENCY_CODES) {
      expect(UNITS_PER_USD[code]).toMatch(/^(0|[1-9]\d*)(\.\d+)?$/);
      expect(parseDecimal(UNITS_PER_USD[code]!).num).toBeGreaterThan(0n);
    }
    expect(receivingCurrencies()).toEqual(SUPPORTED_CURRENCY_CODES);
  });

  test('decimal strings parse exactly, in lowest terms', () => {
    expect(parseDecimal('17.2350')).toEqual({ num: 3447n, den: 200n });
    expect(parseDecimal('0.0000105')).toEqual({ num: 21n, den: 2_000_000n });
    expect(parseDecimal('24550')).toEqual({ num: 24550n, den: 1n });
    for (const bad of ['1e3', '-1', '.5', '01', '1.', ' 1', '']) expect(() => parseDecimal(bad)).toThrow(RangeError);
  });

  test('mid rates are receiving major units per sending major unit, crosses derived exactly', () => {
    expect(midRate('USD', 'MXN')).toEqual({ num: 3447n, den: 200n }); // 17.235
    expect(midRate('MXN', 'USD')).toEqual({ num: 200n, den: 3447n });
    expect(midRate('EUR', 'GBP')).toEqual({ num: 79n, den: 92n }); // 0.79 / 0.92
    expect(midRate('USD', 'BTC')).toEqual({ num: 21n, den: 2_000_000n }); // 0.0000105
    // 17.235 / 0.0000105 = 1,641,428.571428… MXN per BTC
    expect(midRate('BTC', 'MXN')).toEqual({ num: 11_490_000n, den: 7n });
    expect(midRate('USD', 'USD')).toEqual({ num: 1n, den: 1n });
    expect(midRate('USDC', 'USD')).toEqual({ num: 1n, den: 1n });
    expect(midRate('USD', 'XYZ')).toBeUndefined();
    expect(midRate('XYZ', 'USD')).toBeUndefined();
  });

  test('the spread takes basis points off what the recipient gets', () => {
    // 17.235 × (1 − 0.0040) = 17.16606
    expect(applySpread(midRate('USD', 'MXN')!, 40)).toEqual({ num: 858_303n, den: 50_000n });
    expect(applySpread({ num: 1n, den: 1n }, 0)).toEqual({ num: 1n, den: 1n });
    expect(() => applySpread({ num: 1n, den: 1n }, 10_000)).toThrow(RangeError);
    expect(() => applySpread({ num: 1n, den: 1n }, 1.5)).toThrow(RangeError);
  });

  test('rates are shown as numbers with 12 significant digits, rounded half up', () => {
    expect(rationalToNumber({ num: 1n, den: 3n })).toBe(0.333333333333);
    expect(rationalToNumber({ num: 2n, den: 3n }, 4)).toBe(0.6667);
    expect(rationalToNumber({ num: 200n, den: 3447n })).toBe(0.0580214679431);
    expect(rationalToNumber(midRate('BTC', 'USD')!)).toBe(95238.0952381);
    expect(rationalToNumber({ num: 10n ** 30n, den: 3n })).toBe(3.33333333333e29);
    expect(rationalToNumber({ num: 0n, den: 1n })).toBe(0);
  });

  test('corridors: the seven sending currencies to every currency, the same one included', () => {
    expect(SENDING_CURRENCIES).toEqual(['USD', 'EUR', 'GBP', 'USDC', 'USDT', 'USDB', 'BTC']);
    expect(isSupportedCorridor('USD', 'INR')).toBe(true);
    expect(isSupportedCorridor('BTC', 'KES')).toBe(true);
    expect(isSupportedCorridor('USDC', 'USDB')).toBe(true);
    expect(isSupportedCorridor('USD', 'USD')).toBe(true);
    expect(isSupportedCorridor('INR', 'USD')).toBe(false);
    expect(isSupportedCorridor('MXN', 'MXN')).toBe(false);
    expect(isSupportedCorridor('USD', 'XYZ')).toBe(false);
  });
});

describe('corridor terms', () => {
  test('hand-checked corridors', () => {
    // Emerging-market class with the USD→MXN override: 1.50 USD + 0.30%, spread 0.40%.
    expect(corridorTerms('USD', 'MXN')).toEqual({
      serviceFee: { fixedMinor: 150n, variableBps: 30 },
      minSendingMinor: 500n,
      maxSendingMinor: 10_000_000n,
      spreadBps: 40,
    });
    // Mobile money: 2.00 USD + 1%, spread 1.5%, at most 2,000.00 USD per payout.
    expect(corridorTerms('USD', 'KES')).toEqual({
      serviceFee: { fixedMinor: 200n, variableBps: 100 },
      minSendingMinor: 500n,
      maxSendingMinor: 200_000n,
      spreadBps: 150,
    });
    // Stablecoin redemption at par: 1 USDC network cost + 0.10%, no spread.
    expect(corridorTerms('USDC', 'USD')).toEqual({
      serviceFee: { fixedMinor: 1_000_000n, variableBps: 10 },
      minSendingMinor: 5_000_000n,
      maxSendingMinor: 100_000_000_000n,
      spreadBps: 0,
    });
    // Same currency: a small fixed fee, nothing else.
    expect(corridorTerms('EUR', 'EUR')).toEqual({
      serviceFee: { fixedMinor: 20n, variableBps: 0 },
      minSendingMinor: 500n,
      maxSendingMinor: 9_000_000n,
      spreadBps: 0,
    });
    expect(corridorTerms('BTC', 'BTC').serviceFee).toEqual({ fixedMinor: 10n, variableBps: 0 });
  });

  test('a corridor that does not exist is 400 INVALID_CURRENCY', () => {
    expect(findCorridorTerms('MXN', 'USD')).toBeUndefined();
    expect(codeOf(() => corridorTerms('MXN', 'USD'))).toBe('INVALID_CURRENCY');
    expect(codeOf(() => corridorTerms('USD', 'XYZ'))).toBe('INVALID_CURRENCY');
  });

  test('limits: below the minimum AMOUNT_OUT_OF_RANGE, above the maximum TRANSACTION_SIZE_LIMIT_EXCEEDED', () => {
    const terms = corridorTerms('USD', 'MXN');
    expect(codeOf(() => assertWithinCorridorLimits(terms, 499n, 'USD'))).toBe('AMOUNT_OUT_OF_RANGE');
    expect(codeOf(() => assertWithinCorridorLimits(terms, 500n, 'USD'))).toBeUndefined();
    expect(codeOf(() => assertWithinCorridorLimits(terms, 10_000_000n, 'USD'))).toBeUndefined();
    expect(codeOf(() => assertWithinCorridorLimits(terms, 10_000_001n, 'USD'))).toBe('TRANSACTION_SIZE_LIMIT_EXCEEDED');
  });

  test('every corridor: sane limits, and its minimum prices (something left to convert and received)', () => {
    let corridors = 0;
    for (const from of SENDING_CURRENCIES) {
      for (const to of SUPPORTED_CURRENCY_CODES) {
        expect(isSupportedCorridor(from, to)).toBe(true);
        const terms = corridorTerms(from, to);
        corridors += 1;
        expect(terms.minSendingMinor).toBeGreaterThan(terms.serviceFee.fixedMinor);
        expect(terms.minSendingMinor).toBeLessThan(terms.maxSendingMinor);
        expect(terms.maxSendingMinor).toBeLessThanOrEqual(MAX_AMOUNT);
        expect(terms.spreadBps).toBe(from === to ? 0 : terms.spreadBps);
        for (const amount of [terms.minSendingMinor, terms.maxSendingMinor]) {
          const q = priceQuote({
            lockedSide: 'SENDING',
            lockedAmount: amount,
            sending: currency(from),
            receiving: currency(to),
            rate: sandboxRateSource(from, to)!,
            serviceFee: terms.serviceFee,
            platformFee: NO_FEE,
          });
          expect(q.totalReceivingAmount).toBeGreaterThan(0n);
        }
      }
    }
    expect(corridors).toBe(7 * SUPPORTED_CURRENCY_CODES.length);
  });

  test("each currency's payout rail is one of its account type's rails (crypto: a network with a lifetime)", () => {
    for (const code of SUPPORTED_CURRENCY_CODES) {
      const rail = destinationRail(code);
      expect(rail).toBeDefined();
      expect(RAIL_LIFETIME_SECONDS[rail!]).toBeDefined();
      const account = FIAT_ACCOUNT_TYPES.find((t) => t.accountType === `${code}_ACCOUNT`);
      if (account) expect(account.paymentRails).toContain(rail);
    }
    expect([destinationRail('INR'), destinationRail('EUR'), destinationRail('BTC'), destinationRail('USDB')]).toEqual([
      'UPI',
      'SEPA_INSTANT',
      'LIGHTNING',
      'SPARK',
    ]);
  });
});

describe('quote lifetimes', () => {
  test.each([
    ['LIGHTNING', 60],
    ['SPARK', 60],
    ['SOLANA', 120],
    ['SOLANA_WALLET', 120],
    ['BASE_WALLET', 120],
    ['ETHEREUM', 300],
    ['RTP', 120],
    ['FEDNOW', 120],
    ['SEPA_INSTANT', 120],
    ['FASTER_PAYMENTS', 120],
    ['SPEI', 180],
    ['PIX', 180],
    ['UPI', 180],
    ['ACH', 900],
    ['WIRE', 900],
    ['SWIFT', 900],
    ['SEPA', 900],
    ['BANK_TRANSFER', 900],
    ['MOBILE_MONEY', 900],
    ['SOMETHING_NEW', 60],
  ])('%s holds its rate %i s', (rail, seconds) => {
    expect(quoteLifetimeSeconds(rail)).toBe(seconds);
  });

  test('instant rails 1 to 5 minutes, the others longer (spec §2.6)', () => {
    const batch = new Set(['ACH', 'ACH_COLOMBIA', 'WIRE', 'SWIFT', 'SEPA', 'BANK_TRANSFER', 'MOBILE_MONEY', 'NEFT', 'RTGS', 'PESONET', 'CIPS', 'UNIONPAY']);
    for (const [rail, seconds] of Object.entries(RAIL_LIFETIME_SECONDS)) {
      if (batch.has(rail)) expect(seconds).toBeGreaterThan(300);
      else {
        expect(seconds).toBeGreaterThanOrEqual(60);
        expect(seconds).toBeLessThanOrEqual(300);
      }
    }
  });
});

describe('purpose of payment', () => {
  test('required for India, and for a business paying China', () => {
    expect(purposeOfPaymentRequired('INR')).toBe(true);
    expect(purposeOfPaymentRequired('INR', 'IN', 'INDIVIDUAL')).toBe(true);
    expect(purposeOfPaymentRequired('USDC', 'IN')).toBe(true);
    expect(purposeOfPaymentRequired('CNY', 'CN', 'BUSINESS')).toBe(true);
    expect(purposeOfPaymentRequired('CNY', undefined, 'BUSINESS')).toBe(true);
    expect(purposeOfPaymentRequired('CNY', 'CN', 'INDIVIDUAL')).toBe(false);
    expect(purposeOfPaymentRequired('CNY')).toBe(false);
    expect(purposeOfPaymentRequired('MXN', 'MX', 'BUSINESS')).toBe(false);
    expect(purposeOfPaymentRequired('USD')).toBe(false);
  });

  test("the values: the reference's enum plus the spec's business values; a business paying China picks among ten", () => {
    const reference = [
      'GIFT',
      'SELF',
      'GOODS_OR_SERVICES',
      'EDUCATION',
      'HEALTH_OR_MEDICAL',
      'REAL_ESTATE_PURCHASE',
      'TAX_PAYMENT',
      'LOAN_PAYMENT',
      'UTILITY_BILL',
      'DONATION',
      'TRAVEL',
      'FAMILY_SUPPORT',
      'SALARY_PAYMENT',
      'OTHER',
    ];
    expect(PURPOSES_OF_PAYMENT).toEqual(expect.arrayContaining(reference));
    expect(PURPOSES_OF_PAYMENT).toHaveLength(24);
    expect(CHINA_BUSINESS_PURPOSES).toHaveLength(10);
    expect(allowedPurposesOfPayment('CNY', 'CN', 'BUSINESS')).toEqual(CHINA_BUSINESS_PURPOSES);
    expect(allowedPurposesOfPayment('CNY', 'CN', 'BUSINESS')).not.toContain('GIFT');
    expect(allowedPurposesOfPayment('INR')).toEqual(PURPOSES_OF_PAYMENT);
  });
});

describe('priceQuote, hand-computed', () => {
  const base = (over: Partial<PriceQuoteInput>): PriceQuoteInput => ({
    lockedSide: 'SENDING',
    lockedAmount: 100_000n,
    sending: USD,
    receiving: EUR,
    rate: parseDecimal('0.92'),
    serviceFee: NO_FEE,
    platformFee: NO_FEE,
    ...over,
  });

  test("the spec's worked example: 1,000.00 USD, 5.00 fees, 995.00 converted at 0.92 → 915.40 EUR; rate 1.08695652…", () => {
    const q = priceQuote(base({ serviceFee: { fixedMinor: 500n, variableBps: 0 } }));
    expect(q).toMatchObject({
      totalSendingAmount: 100_000n,
      feesIncluded: 500n,
      platformFeesIncluded: 0n,
      amountToConvert: 99_500n,
      totalReceivingAmount: 91_540n,
      receivingPerSendingRate: 0.92,
    });
    expect(q.exchangeRate).toBe(1.08695652174);
    // Locking the 915.40 EUR instead needs exactly the same 1,000.00 USD.
    expect(priceQuote(base({ lockedSide: 'RECEIVING', lockedAmount: 91_540n, serviceFee: { fixedMinor: 500n, variableBps: 0 } }))).toMatchObject({
      totalSendingAmount: 100_000n,
      totalReceivingAmount: 91_540n,
      feesIncluded: 500n,
    });
  });

  test('a variable fee is rounded up: 123.45 USD at 0.25% is 0.31, plus 1.00 fixed', () => {
    const q = priceQuote(base({ lockedAmount: 12_345n, serviceFee: { fixedMinor: 100n, variableBps: 25 } }));
    // 30.8625 → 31; 12345 − 131 = 12214 converted; 12214 × 0.92 = 11236.88 → 11236
    expect(q).toMatchObject({ feesIncluded: 131n, amountToConvert: 12_214n, totalReceivingAmount: 11_236n });
    expect(q.rateDetails).toEqual({
      counterpartyMultiplier: 0.92,
      counterpartyFixedFee: 0n,
      gridApiMultiplier: 0.9975,
      gridApiFixedFee: 100n,
      gridApiVariableFeeRate: 0.0025,
      gridApiVariableFeeAmount: 31n,
    });
  });

  test('service and platform variable fees are rounded up as one sum; the platform share is its own ceiling', () => {
    // 2.01 USD at 0.50% + 0.50%: 2.01 → 3 cents together (not 2 + 2); the platform's ceil(1.005) = 2, the service 1.
    const fees = computeFees(201n, { fixedMinor: 0n, variableBps: 50 }, { fixedMinor: 0n, variableBps: 50 });
    expect(fees).toEqual({ total: 3n, fixed: 0n, platform: 2n, serviceFixed: 0n, serviceVariable: 1n });
  });

  test('USD→MXN with the corridor spread and a platform fee', () => {
    const q = priceQuote(
      base({
        lockedAmount: 10_000n,
        receiving: { code: 'MXN', decimals: 2 },
        rate: applySpread(midRate('USD', 'MXN')!, 40), // 17.16606
        serviceFee: { fixedMinor: 150n, variableBps: 30 },
        platformFee: { fixedMinor: 50n, variableBps: 20 },
      }),
    );
    // fees: 150 + 50 fixed, ceil(10000 × 50 / 10000) = 50 variable → 250, of which the platform's 50 + 20 = 70.
    // 9750 × 17.16606 = 167369.085 → 167369 centavos.
    expect(q).toMatchObject({
      totalSendingAmount: 10_000n,
      feesIncluded: 250n,
      platformFeesIncluded: 70n,
      amountToConvert: 9_750n,
      totalReceivingAmount: 167_369n,
    });
    expect(q.rateDetails).toMatchObject({ gridApiFixedFee: 150n, gridApiVariableFeeAmount: 30n, gridApiVariableFeeRate: 0.003, gridApiMultiplier: 0.995 });
    expect(q.exchangeRate).toBeCloseTo(1 / 17.16606, 12);
  });

  test('locked receiving: the smallest sending amount, exactly the locked amount reported', () => {
    // 915.40 EUR at 0.91724 with 1.00 + 0.25%: 998.00 USD must be converted; S = 1001.51 gives
    // fees 1.00 + ceil(250.3775) = 3.51 and 998.00 left (915.4055… → 915.40); S = 1001.50 leaves 997.99.
    const q = priceQuote(
      base({ lockedSide: 'RECEIVING', lockedAmount: 91_540n, rate: applySpread(parseDecimal('0.92'), 30), serviceFee: { fixedMinor: 100n, variableBps: 25 } }),
    );
    expect(q).toMatchObject({ totalSendingAmount: 100_151n, feesIncluded: 351n, amountToConvert: 99_800n, totalReceivingAmount: 91_540n });
    const oneLess = priceQuote(
      base({ lockedAmount: 100_150n, rate: applySpread(parseDecimal('0.92'), 30), serviceFee: { fixedMinor: 100n, variableBps: 25 } }),
    );
    expect(oneLess.totalReceivingAmount).toBe(91_539n);
  });

  test('decimals differ: 100.00 USD buys 105,000 sats; 1,000,000 VND from BTC needs 42,770 sats (the 3 VND surplus stays)', () => {
    expect(priceQuote(base({ lockedAmount: 10_000n, receiving: { code: 'BTC', decimals: 8 }, rate: midRate('USD', 'BTC')! })).totalReceivingAmount).toBe(
      105_000n,
    );
    // 24550 / 0.0000105 VND per BTC = 491/21 VND per sat; ceil(1,000,000 × 21 / 491) = 42,770 sats,
    // which convert to 1,000,003.33 VND: the recipient gets 1,000,000.
    const q = priceQuote(
      base({
        lockedSide: 'RECEIVING',
        lockedAmount: 1_000_000n,
        sending: { code: 'BTC', decimals: 8 },
        receiving: { code: 'VND', decimals: 0 },
        rate: midRate('BTC', 'VND')!,
      }),
    );
    expect(q).toMatchObject({ totalSendingAmount: 42_770n, amountToConvert: 42_770n, totalReceivingAmount: 1_000_000n, feesIncluded: 0n });
    expect(q.exchangeRate).toBe(4.27698574338e-10); // BTC per VND: 21 / 49,100,000,000
  });

  test('nothing left to convert or to receive is 400 AMOUNT_OUT_OF_RANGE', () => {
    expect(codeOf(() => priceQuote(base({ lockedAmount: 100n, serviceFee: { fixedMinor: 100n, variableBps: 0 } })))).toBe('AMOUNT_OUT_OF_RANGE');
    expect(codeOf(() => priceQuote(base({ lockedAmount: 0n })))).toBe('AMOUNT_OUT_OF_RANGE');
    expect(codeOf(() => priceQuote(base({ lockedSide: 'RECEIVING', lockedAmount: 0n })))).toBe('AMOUNT_OUT_OF_RANGE');
    // 1 sat is 0.095 US cents: nothing arrives.
    expect(codeOf(() => priceQuote(base({ lockedAmount: 1n, sending: { code: 'BTC', decimals: 8 }, receiving: USD, rate: midRate('BTC', 'USD')! })))).toBe(
      'AMOUNT_OUT_OF_RANGE',
    );
    expect(
      codeOf(() =>
        priceQuote(
          base({
            lockedSide: 'RECEIVING',
            lockedAmount: 1n,
            serviceFee: { fixedMinor: 0n, variableBps: 6_000 },
            platformFee: { fixedMinor: 0n, variableBps: 4_000 },
          }),
        ),
      ),
    ).toBe('AMOUNT_OUT_OF_RANGE');
  });

  test('invalid inputs are programming errors', () => {
    expect(() => priceQuote(base({ sending: { code: 'X', decimals: 19 } }))).toThrow(RangeError);
    expect(() => priceQuote(base({ rate: { num: 0n, den: 1n } }))).toThrow(RangeError);
    expect(() => priceQuote(base({ serviceFee: { fixedMinor: -1n, variableBps: 0 } }))).toThrow(RangeError);
    expect(() => priceQuote(base({ platformFee: { fixedMinor: 0n, variableBps: 10_001 } }))).toThrow(RangeError);
  });
});

describe('platform fees from feeConfigs', () => {
  const usdConfig = { feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 30, fixedFee: { amount: 25, currency: 'USD' } };

  test('the CROSS_CURRENCY_TRANSACTION config of the sending currency, on conversions only', () => {
    expect(platformFeeFor([usdConfig], 'USD', 'MXN')).toEqual({ fixedMinor: 25n, variableBps: 30 });
    expect(platformFeeFor([usdConfig], 'USD', 'USD')).toEqual(NO_FEE);
    expect(platformFeeFor([usdConfig], 'EUR', 'MXN')).toEqual(NO_FEE);
    expect(platformFeeFor([], 'USD', 'MXN')).toEqual(NO_FEE);
  });

  test('a fixed fee in another currency is converted at the mid rate and rounded up', () => {
    // 0.25 EUR in USD: 0.25 / 0.92 = 0.2717… → 28 cents
    expect(platformFeeFor([{ ...usdConfig, fixedFee: { amount: 25, currency: 'EUR' } }], 'USD', 'MXN')).toEqual({ fixedMinor: 28n, variableBps: 30 });
  });
});

describe('RateBook', () => {
  const t0 = new Date('2026-11-24T12:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  test('a pair is fetched once and kept 5 minutes, with the corridor spread in the rate', () => {
    let calls = 0;
    const book = new RateBook((from, to) => {
      calls += 1;
      return sandboxRateSource(from, to);
    });
    const first = book.quote('USD', 'MXN', t0);
    expect(first).toEqual({ rate: { num: 858_303n, den: 50_000n }, fetchedAt: t0, expiresAt: at(300_000) });
    expect(book.quote('USD', 'MXN', at(299_999)).fetchedAt).toEqual(t0);
    expect(calls).toBe(1);
    book.quote('USD', 'EUR', at(1_000));
    expect(calls).toBe(2);
    const later = book.quote('USD', 'MXN', at(300_000));
    expect(later).toMatchObject({ fetchedAt: at(300_000), expiresAt: at(600_000) });
    expect(calls).toBe(3);
    // A clock that went back refreshes rather than using a rate from the future.
    book.quote('USD', 'MXN', at(-1));
    expect(calls).toBe(4);
  });

  test('refusals: unknown currency and missing corridor INVALID_CURRENCY, no rate now QUOTE_RATE_UNAVAILABLE (not cached)', () => {
    let available = false;
    const book = new RateBook((from, to) => (available ? midRate(from, to) : undefined));
    expect(codeOf(() => book.quote('USD', 'XYZ', t0))).toBe('INVALID_CURRENCY');
    expect(codeOf(() => book.quote('INR', 'USD', t0))).toBe('INVALID_CURRENCY');
    expect(codeOf(() => book.quote('USD', 'INR', t0))).toBe('QUOTE_RATE_UNAVAILABLE');
    available = true;
    expect(book.quote('USD', 'INR', at(1)).rate).toEqual({ num: 333n, den: 4n });
  });
});

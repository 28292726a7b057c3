import { DomainError } from '../../src/domain/errors';
import { computeFees, priceQuote, type PriceQuoteInput } from '../../src/contexts/payments/domain/pricing/quote-math';

/**
 * Property tests of priceQuote over thousands of random quotes: amounts 1 .. 9e15, random
 * rationals as rates, decimals 0..18 on both sides, random fixed and variable fees. Every check
 * is done with an independent, exact re-computation in bigint. The PRNG is seeded (splitmix64):
 * a failure prints the seed and the case; PRICING_SEED=<n> replays another sequence.
 */

const MASK = (1n << 64n) - 1n;

/** splitmix64: small, fast, and good enough to spread test cases. */
class Prng {
  private state: bigint;
  constructor(seed: bigint) {
    this.state = seed & MASK;
  }
  next64(): bigint {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  }
  /** Uniform in [0, n) for n ≤ 2^64, by rejection (no modulo bias). */
  below(n: bigint): bigint {
    const limit = (1n << 64n) - ((1n << 64n) % n);
    for (;;) {
      const x = this.next64();
      if (x < limit) return x % n;
    }
  }
  between(min: bigint, max: bigint): bigint {
    return min + this.below(max - min + 1n);
  }
  int(min: number, max: number): number {
    return Number(this.between(BigInt(min), BigInt(max)));
  }
  chance(p: number): boolean {
    return Number(this.below(1_000_000n)) < p * 1_000_000;
  }
  /** Spread over magnitudes: a random digit count, then a uniform value with that many digits. */
  magnitude(min: bigint, max: bigint): bigint {
    const lo = min.toString().length;
    const hi = max.toString().length;
    const digits = this.int(lo, hi);
    const from = digits === lo ? min : 10n ** BigInt(digits - 1);
    const to = digits === hi ? max : 10n ** BigInt(digits) - 1n;
    return this.between(from, to);
  }
}

const SEED = BigInt(process.env.PRICING_SEED ?? '20261124');
const CASES = 10_000;
const MAX = 9_000_000_000_000_000n;

function randomInput(rng: Prng, lockedSide: 'SENDING' | 'RECEIVING'): PriceQuoteInput {
  const bps = () => (rng.chance(0.25) ? 0 : rng.chance(0.9) ? rng.int(1, 500) : rng.int(501, 9_999));
  const fixed = () => (rng.chance(0.3) ? 0n : rng.magnitude(1n, 10n ** 7n));
  return {
    lockedSide,
    lockedAmount: rng.magnitude(1n, MAX),
    sending: { code: 'SND', decimals: rng.int(0, 18) },
    receiving: { code: 'RCV', decimals: rng.int(0, 18) },
    rate: { num: rng.magnitude(1n, 10n ** 12n), den: rng.magnitude(1n, 10n ** 12n) },
    serviceFee: { fixedMinor: fixed(), variableBps: bps() },
    platformFee: { fixedMinor: fixed(), variableBps: rng.chance(0.5) ? 0 : bps() },
  };
}

/** Receiving minor units per sending minor unit as (num, den), computed apart from the code under test. */
function factor(input: PriceQuoteInput) {
  return { num: input.rate.num * 10n ** BigInt(input.receiving.decimals), den: input.rate.den * 10n ** BigInt(input.sending.decimals) };
}

/** The reference model of rules 1–3: what S converts to, or undefined when nothing is left. */
function model(input: PriceQuoteInput, S: bigint) {
  const v = BigInt(input.serviceFee.variableBps + input.platformFee.variableBps);
  const fees = input.serviceFee.fixedMinor + input.platformFee.fixedMinor + (S * v + 9_999n) / 10_000n;
  const A = S - fees;
  const k = factor(input);
  return { fees, A, R: A > 0n ? (A * k.num) / k.den : 0n };
}

function describeCase(input: PriceQuoteInput): string {
  return JSON.stringify(input, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

function check(ok: boolean, what: string, input: PriceQuoteInput): void {
  if (!ok) throw new Error(`property failed: ${what}\nseed ${SEED}\ncase ${describeCase(input)}`);
}

function checkCommon(input: PriceQuoteInput, q: ReturnType<typeof priceQuote>): void {
  for (const [name, value] of Object.entries({ ...q, ...q.rateDetails, rateDetails: undefined, exchangeRate: undefined, receivingPerSendingRate: undefined })) {
    if (['counterpartyMultiplier', 'gridApiMultiplier', 'gridApiVariableFeeRate', 'rateDetails', 'exchangeRate', 'receivingPerSendingRate'].includes(name))
      continue;
    check(typeof value === 'bigint', `${name} is a bigint`, input);
  }
  const k = factor(input);
  check(q.totalSendingAmount === q.amountToConvert + q.feesIncluded, 'totalSending = amountToConvert + fees', input);
  check(q.amountToConvert > 0n, 'something is converted', input);
  check(q.totalReceivingAmount > 0n, 'something is received', input);
  check(q.feesIncluded >= 0n && q.platformFeesIncluded >= 0n, 'fees are not negative', input);
  check(q.platformFeesIncluded <= q.feesIncluded, 'platform fees are part of the fees', input);
  // No money created: receiving ≤ amountToConvert × rate, exactly.
  check(q.totalReceivingAmount * k.den <= q.amountToConvert * k.num, 'receiving ≤ exact converted value', input);
  // Fees: never below the schedule, at most one minor unit above it.
  const S = q.totalSendingAmount;
  const fixed = input.serviceFee.fixedMinor + input.platformFee.fixedMinor;
  const v = BigInt(input.serviceFee.variableBps + input.platformFee.variableBps);
  check(q.feesIncluded * 10_000n >= fixed * 10_000n + S * v, 'fees ≥ schedule', input);
  check(q.feesIncluded * 10_000n < fixed * 10_000n + S * v + 10_000n, 'fees < schedule + 1', input);
  check(
    q.platformFeesIncluded * 10_000n >= input.platformFee.fixedMinor * 10_000n + S * BigInt(input.platformFee.variableBps),
    'platform fee ≥ its schedule',
    input,
  );
  const rd = q.rateDetails;
  check(
    rd.gridApiFixedFee + rd.gridApiVariableFeeAmount + q.platformFeesIncluded === q.feesIncluded,
    'service fixed + service variable + platform = fees',
    input,
  );
  check(rd.gridApiVariableFeeAmount >= 0n && rd.counterpartyFixedFee === 0n, 'rate details are not negative', input);
  // Display numbers: within rounding of the exact rate (12 significant digits).
  const shown = (x: number, num: bigint, den: bigint) => Math.abs(x * Number(den) - Number(num)) <= Math.abs(Number(num)) * 1e-11;
  check(shown(q.exchangeRate, input.rate.den, input.rate.num), 'exchangeRate = sending per receiving', input);
  check(shown(q.receivingPerSendingRate, input.rate.num, input.rate.den), 'receivingPerSendingRate = receiving per sending', input);
}

function expectOutOfRange(input: PriceQuoteInput, err: unknown): void {
  check(err instanceof DomainError && err.code === 'AMOUNT_OUT_OF_RANGE', `only AMOUNT_OUT_OF_RANGE is thrown (got ${String(err)})`, input);
}

describe('priceQuote properties (seeded)', () => {
  test(`locked SENDING: exact split, floor conversion, no money created (${CASES} cases)`, () => {
    const rng = new Prng(SEED);
    let priced = 0;
    for (let i = 0; i < CASES; i++) {
      const input = randomInput(rng, 'SENDING');
      const expected = model(input, input.lockedAmount);
      let q;
      try {
        q = priceQuote(input);
      } catch (err) {
        expectOutOfRange(input, err);
        const v = input.serviceFee.variableBps + input.platformFee.variableBps;
        check(v >= 10_000 || expected.A <= 0n || expected.R <= 0n, 'refused only when nothing is converted or received', input);
        continue;
      }
      priced += 1;
      checkCommon(input, q);
      const k = factor(input);
      check(q.totalSendingAmount === input.lockedAmount, 'the locked sending amount is the total', input);
      check(q.feesIncluded === expected.fees && q.amountToConvert === expected.A, 'fees and amountToConvert follow rule 1', input);
      // Floor: less than one minor unit below the exact value.
      check((q.totalReceivingAmount + 1n) * k.den > q.amountToConvert * k.num, 'receiving > exact − 1 minor unit', input);
    }
    // The generator must exercise the success path, not only refusals.
    expect(priced).toBeGreaterThan(CASES / 2);
  });

  test(`locked RECEIVING: exactly the locked amount, from the smallest sending amount (${CASES} cases)`, () => {
    const rng = new Prng(SEED + 1n);
    let priced = 0;
    for (let i = 0; i < CASES; i++) {
      const input = randomInput(rng, 'RECEIVING');
      let q;
      try {
        q = priceQuote(input);
      } catch (err) {
        expectOutOfRange(input, err);
        check(
          input.serviceFee.variableBps + input.platformFee.variableBps >= 10_000,
          'a receiving amount is refused only when variable fees take everything',
          input,
        );
        continue;
      }
      priced += 1;
      checkCommon(input, q);
      const T = input.lockedAmount;
      const S = q.totalSendingAmount;
      const k = factor(input);
      check(q.totalReceivingAmount === T, 'the locked receiving amount is reported exactly', input);
      const at = model(input, S);
      check(q.feesIncluded === at.fees && q.amountToConvert === at.A, 'fees and amountToConvert follow rule 1', input);
      check(at.R >= T, 'the sending amount covers the locked amount', input);
      // Minimal: one sending minor unit less does not cover it.
      check(model(input, S - 1n).R < T, 'one sending minor unit less would not cover the locked amount', input);
      // The surplus kept by the service is worth less than one sending minor unit …
      check((q.amountToConvert - 1n) * k.num < T * k.den, 'surplus < one sending minor unit', input);
      // … and less than one receiving minor unit whenever a sending unit buys at most one receiving unit.
      if (k.num <= k.den) check(q.amountToConvert * k.num < (T + 1n) * k.den, 'receiving > exact − 1 minor unit', input);
      // Locking that sending amount instead prices at least the same receiving amount.
      const back = priceQuote({ ...input, lockedSide: 'SENDING', lockedAmount: S });
      check(
        back.totalReceivingAmount >= T && back.totalSendingAmount === S && back.feesIncluded === q.feesIncluded,
        'SENDING lock of the found amount agrees',
        input,
      );
    }
    expect(priced).toBeGreaterThan(CASES / 2);
  });

  test('the converted amount never decreases as the sending amount grows (what makes the minimum exist)', () => {
    const rng = new Prng(SEED + 2n);
    for (let i = 0; i < 300; i++) {
      const input = randomInput(rng, 'SENDING');
      if (input.serviceFee.variableBps + input.platformFee.variableBps >= 10_000) continue;
      const start = rng.magnitude(1n, MAX);
      let previous: bigint | undefined;
      for (let S = start; S < start + 200n; S++) {
        const fees = computeFees(S, input.serviceFee, input.platformFee);
        const A = S - fees.total;
        check(previous === undefined || A >= previous, `amountToConvert is non-decreasing at S=${S}`, input);
        check(fees.platform <= fees.total && fees.serviceVariable >= 0n, 'fee split is consistent', input);
        previous = A;
      }
    }
  });

  test('the PRNG is deterministic and spreads values', () => {
    const a = new Prng(42n);
    const b = new Prng(42n);
    const xs = Array.from({ length: 1000 }, () => a.int(0, 9));
    expect(Array.from({ length: 1000 }, () => b.int(0, 9))).toEqual(xs);
    for (let d = 0; d <= 9; d++) expect(xs.filter((x) => x === d).length).toBeGreaterThan(50);
  });
});

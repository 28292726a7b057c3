import { findCurrency, SUPPORTED_CURRENCY_CODES } from '../../../../domain/currencies';
import { UNITS_PER_USD } from './data/sandbox-rates';

export { RATE_DATA_VERSION } from './data/sandbox-rates';

/**
 * An exact positive ratio of integers, always in lowest terms with a positive denominator. Rates
 * are rationals so that pricing never goes through a float; a float appears only when a rate is
 * shown (`rationalToNumber`).
 */
export type Rational = { num: bigint; den: bigint };

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** num/den in lowest terms; den must not be zero. */
export function rational(num: bigint, den: bigint): Rational {
  if (den === 0n) throw new RangeError('rational with a zero denominator');
  const sign = den < 0n ? -1n : 1n;
  const g = gcd(num, den) || 1n;
  return { num: (sign * num) / g, den: (sign * den) / g };
}

export function multiply(a: Rational, b: Rational): Rational {
  return rational(a.num * b.num, a.den * b.den);
}

export function divide(a: Rational, b: Rational): Rational {
  if (b.num === 0n) throw new RangeError('division by a zero rational');
  return rational(a.num * b.den, a.den * b.num);
}

const DECIMAL = /^(0|[1-9]\d*)(?:\.(\d+))?$/;

/** An exact decimal string (`'17.2350'`, `'0.0000105'`) as a rational; anything else throws. */
export function parseDecimal(text: string): Rational {
  const m = DECIMAL.exec(text);
  if (!m) throw new RangeError(`not a plain decimal: ${JSON.stringify(text)}`);
  const fraction = m[2] ?? '';
  return rational(BigInt(m[1] + fraction), 10n ** BigInt(fraction.length));
}

/**
 * A rational as a float with `significantDigits` significant digits, for display only (an API's
 * `exchangeRate` number). The digits are computed exactly in bigint and rounded half up once.
 */
export function rationalToNumber(r: Rational, significantDigits = 12): number {
  if (r.num === 0n) return 0;
  const negative = r.num < 0n !== r.den < 0n;
  const num = r.num < 0n ? -r.num : r.num;
  const den = r.den < 0n ? -r.den : r.den;
  // floor(|r| · 10^e), computed exactly.
  const scaled = (e: number) => (e >= 0 ? (num * 10n ** BigInt(e)) / den : num / (den * 10n ** BigInt(-e)));
  // Find e giving one digit more than wanted (the guard digit), then round half up on it.
  const wanted = significantDigits + 1;
  let e = wanted - (num.toString().length - den.toString().length);
  while (scaled(e).toString().length > wanted) e -= 1;
  while (scaled(e).toString().length < wanted) e += 1;
  const rounded = (scaled(e) + 5n) / 10n;
  const value = Number(`${rounded}e${1 - e}`);
  return negative ? -value : value;
}

const perUsd = new Map(Object.entries(UNITS_PER_USD).map(([code, text]) => [code, parseDecimal(text)]));

/**
 * The sandbox mid-market rate: RECEIVING major units per 1 SENDING major unit (e.g. USD→MXN is
 * 17.235), exact. Same currency is 1. Undefined for a currency without a rate. No spread: the
 * corridor's spread is applied by `applySpread` (the rate book does it).
 */
export function midRate(from: string, to: string): Rational | undefined {
  const a = perUsd.get(from);
  const b = perUsd.get(to);
  if (!a || !b) return undefined;
  return divide(b, a);
}

/**
 * A rate worsened for the customer by `spreadBps` basis points: the receiving side gets
 * (10000 − spread)/10000 of the mid rate. The spread is the service's FX margin; it is part of
 * the rate, not of `feesIncluded`.
 */
export function applySpread(mid: Rational, spreadBps: number): Rational {
  if (!Number.isInteger(spreadBps) || spreadBps < 0 || spreadBps >= 10_000) throw new RangeError(`spread must be an integer 0..9999 bps, got ${spreadBps}`);
  return multiply(mid, rational(BigInt(10_000 - spreadBps), 10_000n));
}

/**
 * Currencies a quote may SEND from: the balances the service holds (USD, EUR, GBP internal
 * accounts; USDC, USDT, USDB and BTC wallets). Every currency with a rate may be RECEIVED, so a
 * corridor exists from each of these to every fiat and crypto currency of src/domain/currencies.ts,
 * the same currency included (same-currency transfers go through quotes too, spec §1).
 */
export const SENDING_CURRENCIES: readonly string[] = ['USD', 'EUR', 'GBP', 'USDC', 'USDT', 'USDB', 'BTC'];

export function isSupportedCorridor(from: string, to: string): boolean {
  return SENDING_CURRENCIES.includes(from) && findCurrency(to) !== undefined && perUsd.has(from) && perUsd.has(to);
}

/** Every currency that may be received, in the order of src/domain/currencies.ts. */
export function receivingCurrencies(): string[] {
  return SUPPORTED_CURRENCY_CODES.filter((code) => perUsd.has(code));
}

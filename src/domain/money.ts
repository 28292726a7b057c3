/** Money is always an integer count of the currency's smallest unit. */
export type Minor = bigint;

/** Largest amount the API accepts anywhere (spec §8: lockedCurrencyAmount <= 9e15). */
export const MAX_AMOUNT: Minor = 9_000_000_000_000_000n;
/** Largest single sandbox funding call (reference: SandboxFundRequest.amount maximum). */
export const MAX_SANDBOX_FUND_AMOUNT: Minor = 100_000_000_000n;

const DIGITS = /^-?(0|[1-9]\d*)$/;

/** Parses an exact integer from a string of digits; anything else throws. */
export function parseMinor(text: string): Minor {
  if (!DIGITS.test(text)) throw new RangeError(`not an integer amount: ${JSON.stringify(text)}`);
  return BigInt(text);
}

export function toMinor(value: number | bigint | string): Minor {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string') return parseMinor(value);
  if (!Number.isSafeInteger(value)) throw new RangeError(`not a safe integer amount: ${value}`);
  return BigInt(value);
}

export function sum(values: Iterable<Minor>): Minor {
  let total = 0n;
  for (const v of values) total += v;
  return total;
}

/** Renders minor units as a decimal string, for humans only (logs, README); never for math. */
export function formatMinor(amount: Minor, decimals: number): string {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

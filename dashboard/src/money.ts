/**
 * Money as the API gives it: an integer of minor units with the currency's decimals. Formatted with
 * BigInt arithmetic, never through a float, so 9007199254740993 cents prints exactly.
 */
export interface Currency {
  code: string;
  decimals?: number;
  symbol?: string;
  name?: string;
}

export interface Money {
  amount: number | string;
  currency: Currency;
}

/** "1234567", 2 → "12,345.67"; negative amounts keep their sign. */
export function formatMinor(amount: number | string | bigint, decimals = 2): string {
  let value: bigint;
  try {
    value = typeof amount === 'bigint' ? amount : BigInt(typeof amount === 'number' ? Math.trunc(amount).toString() : amount);
  } catch {
    return String(amount);
  }
  const negative = value < 0n;
  if (negative) value = -value;
  const scale = 10n ** BigInt(Math.max(0, decimals));
  const whole = (value / scale).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = decimals > 0 ? '.' + (value % scale).toString().padStart(decimals, '0') : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

export function formatMoney(money: Money | null | undefined): string {
  if (!money) return '—';
  return `${formatMinor(money.amount, money.currency?.decimals ?? 2)} ${money.currency?.code ?? ''}`.trim();
}

/** "12.34" with 2 decimals → 1234n; null when it is not a plain decimal with at most that many places. */
export function parseMajor(text: string, decimals = 2): bigint | null {
  const m = /^\s*(\d+)(?:\.(\d*))?\s*$/.exec(text.replace(/,/g, ''));
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > decimals) return null;
  return BigInt(m[1]!) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
}

/** A well-known currency's decimals, for amounts given without their currency object (metrics). */
export function decimalsOf(code: string): number {
  const known: Record<string, number> = { JPY: 0, KRW: 0, BTC: 8, SAT: 0, USDC: 6, USDT: 6, USDB: 6, ETH: 18, SOL: 9 };
  return known[code] ?? 2;
}

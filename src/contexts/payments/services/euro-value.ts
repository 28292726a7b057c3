import { findCurrency } from '../../../domain/currencies';
import { midRate } from '../domain/pricing/rates';

/**
 * An amount's value in euro cents at the sandbox mid rate, rounded down; for thresholds written
 * in euros (the EU rule on unverified self-hosted wallets). Undefined when there is no rate.
 */
export function euroCentsOf(currency: string, amount: bigint): bigint | undefined {
  const from = findCurrency(currency);
  if (!from) return undefined;
  if (currency === 'EUR') return amount;
  const rate = midRate(currency, 'EUR');
  if (!rate) return undefined;
  // amount / 10^d × rate (EUR per unit) × 100 cents
  return (amount * rate.num * 100n) / (rate.den * 10n ** BigInt(from.decimals));
}

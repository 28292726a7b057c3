import { findCurrency } from '../../../../domain/currencies';
import { convertDown, minorRate } from './quote-math';
import { midRate } from './rates';

/**
 * An amount's value in another currency's minor units at the sandbox mid rate, rounded down (the
 * conversion rule of quote-math), for thresholds written in a currency of their own — the EU rule
 * on unverified self-hosted wallets is in euro cents. Undefined when there is no rate.
 */
export function valueIn(target: string, currency: string, amountMinor: bigint): bigint | undefined {
  if (currency === target) return amountMinor;
  const from = findCurrency(currency);
  const to = findCurrency(target);
  const rate = midRate(currency, target);
  if (!from || !to || !rate) return undefined;
  return convertDown(amountMinor, minorRate(rate, from.decimals, to.decimals));
}

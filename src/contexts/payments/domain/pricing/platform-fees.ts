import type { FeeConfig } from '../../../platforms';
import { findCurrency } from '../../../../domain/currencies';
import { midRate } from './rates';
import type { FeeSchedule } from './quote-math';

/** The platform fee type that applies to a conversion (reference FeeType). */
export const CROSS_CURRENCY_FEE_TYPE = 'CROSS_CURRENCY_TRANSACTION';

export const NO_FEE: FeeSchedule = { fixedMinor: 0n, variableBps: 0 };

/**
 * The platform-collected fee of a corridor, from the platform's `feeConfigs` (PATCH /config): the
 * CROSS_CURRENCY_TRANSACTION config whose sourceCurrency is the sending currency, for corridors
 * whose two currencies differ; none otherwise. A fixed fee configured in another currency is
 * converted to sending minor units at the mid rate, rounded UP (fees never round down).
 */
export function platformFeeFor(feeConfigs: readonly FeeConfig[], from: string, to: string): FeeSchedule {
  if (from === to) return NO_FEE;
  const config = feeConfigs.find((f) => f.feeType === CROSS_CURRENCY_FEE_TYPE && f.sourceCurrency === from);
  if (!config) return NO_FEE;
  return { fixedMinor: fixedFeeInSendingMinor(BigInt(config.fixedFee.amount), config.fixedFee.currency, from), variableBps: config.variableFeeBps };
}

function fixedFeeInSendingMinor(amount: bigint, feeCurrency: string, sending: string): bigint {
  if (amount === 0n || feeCurrency === sending) return amount;
  const rate = midRate(feeCurrency, sending);
  const fee = findCurrency(feeCurrency);
  const out = findCurrency(sending);
  if (!rate || !fee || !out) return 0n;
  const num = amount * rate.num * 10n ** BigInt(out.decimals);
  const den = rate.den * 10n ** BigInt(fee.decimals);
  return (num + den - 1n) / den;
}

import { DomainError } from '../../../../domain/errors';
import {
  CLASS_PRICING,
  CORRIDOR_OVERRIDES,
  DESTINATION_CLASS,
  DESTINATION_RAILS,
  RAIL_LIFETIME_SECONDS,
  SENDING_SCHEDULES,
  UNKNOWN_RAIL_LIFETIME_SECONDS,
  type DestinationClass,
} from './data/corridors';
import { isSupportedCorridor } from './rates';

export { CORRIDOR_DATA_VERSION } from './data/corridors';

/** The service's price and limits for one corridor; every amount in SENDING minor units. */
export interface CorridorTerms {
  /** The service's own fee (platform fees come on top, from the platform's feeConfigs). */
  serviceFee: { fixedMinor: bigint; variableBps: number };
  /** Below it: AMOUNT_OUT_OF_RANGE. */
  minSendingMinor: bigint;
  /** Above it: TRANSACTION_SIZE_LIMIT_EXCEEDED. */
  maxSendingMinor: bigint;
  /** The FX margin taken in the rate (rates.ts applySpread); 0 for same-currency corridors. */
  spreadBps: number;
}

export function destinationClass(from: string, to: string): DestinationClass | undefined {
  if (from === to) return 'SAME_CURRENCY';
  return DESTINATION_CLASS[to];
}

/** The corridor's terms, or undefined when the service does not offer it (rates.ts isSupportedCorridor). */
export function findCorridorTerms(from: string, to: string): CorridorTerms | undefined {
  if (!isSupportedCorridor(from, to)) return undefined;
  const schedule = SENDING_SCHEDULES[from];
  const cls = destinationClass(from, to);
  if (!schedule || !cls) return undefined;
  const override = CORRIDOR_OVERRIDES[`${from}:${to}`] ?? {};
  const pricing = CLASS_PRICING[cls];
  return {
    serviceFee: { fixedMinor: override.fixedFeeMinor ?? schedule.fixedFeeMinor[cls], variableBps: override.variableBps ?? pricing.variableBps },
    minSendingMinor: override.minSendingMinor ?? schedule.minSendingMinor,
    maxSendingMinor: override.maxSendingMinor ?? (cls === 'MOBILE_MONEY_FIAT' ? schedule.mobileMoneyMaxSendingMinor : schedule.maxSendingMinor),
    spreadBps: override.spreadBps ?? pricing.spreadBps,
  };
}

/** The corridor's terms; a corridor the service does not offer is `400 INVALID_CURRENCY`. */
export function corridorTerms(from: string, to: string): CorridorTerms {
  const terms = findCorridorTerms(from, to);
  if (!terms) throw new DomainError('INVALID_CURRENCY', `Sending ${from} to ${to} is not supported`, { sendingCurrency: from, receivingCurrency: to });
  return terms;
}

/**
 * A quote's totalSendingAmount against the corridor's limits: below the minimum is
 * `AMOUNT_OUT_OF_RANGE`, above the single-transaction maximum `TRANSACTION_SIZE_LIMIT_EXCEEDED`
 * (spec §7, §8). The details carry both limits in sending minor units.
 */
export function assertWithinCorridorLimits(terms: CorridorTerms, totalSendingMinor: bigint, currency: string): void {
  const details = { currency, minSendingAmount: terms.minSendingMinor, maxSendingAmount: terms.maxSendingMinor, totalSendingAmount: totalSendingMinor };
  if (totalSendingMinor < terms.minSendingMinor) {
    throw new DomainError(
      'AMOUNT_OUT_OF_RANGE',
      `The sending amount is below this corridor's minimum of ${terms.minSendingMinor} (${currency} minor units)`,
      details,
    );
  }
  if (totalSendingMinor > terms.maxSendingMinor) {
    throw new DomainError(
      'TRANSACTION_SIZE_LIMIT_EXCEEDED',
      `The sending amount is above this corridor's single-transaction maximum of ${terms.maxSendingMinor} (${currency} minor units)`,
      details,
    );
  }
}

/** The rail a payout in `currency` takes when none is named; undefined for an unknown currency. */
export function destinationRail(currency: string): string | undefined {
  return DESTINATION_RAILS[currency];
}

/**
 * Seconds a quote paying out on `rail` holds its rate (quote `expiresAt` = creation + this).
 * Instant rails (Lightning, Spark, chain wallets, RTP, FedNow, SEPA Instant, Faster Payments,
 * SPEI, PIX, UPI…) 60–300 s; ACH, wire, SWIFT, SEPA, bank transfer and mobile money 15 minutes.
 * Wallet account types are accepted for their network (`SOLANA_WALLET` → `SOLANA`). A rail the
 * table does not know gets the shortest lifetime, 60 s.
 */
export function quoteLifetimeSeconds(rail: string): number {
  const key = rail.toUpperCase().replace(/_WALLET$/, '');
  return RAIL_LIFETIME_SECONDS[key] ?? UNKNOWN_RAIL_LIFETIME_SECONDS;
}

/**
 * Allowed `purposeOfPayment` values (spec §4.2). The reference's PurposeOfPayment enum is the
 * first thirteen plus OTHER; the spec adds the trade and business values a business payout to
 * China must use (CHINA_BUSINESS_PURPOSES).
 */
export const PURPOSES_OF_PAYMENT = [
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
  'EXPORTED_GOODS_PREPAYMENT',
  'EXPORTED_GOODS_POSTPAYMENT',
  'SERVICE_CHARGES',
  'OFFICE_EXPENSES',
  'DELIVERY_FEES',
  'HOTEL_ACCOMMODATION',
  'COMMISSION_ON_GOODS',
  'COMMISSION_ON_SERVICES',
  'ACCOUNTING_SERVICES',
  'EXHIBITION_SERVICES',
  'OTHER',
] as const;

export type PurposeOfPayment = (typeof PURPOSES_OF_PAYMENT)[number];

/** The only purposes a business payout to China may carry (spec §4.2). */
export const CHINA_BUSINESS_PURPOSES: readonly PurposeOfPayment[] = [
  'EXPORTED_GOODS_PREPAYMENT',
  'EXPORTED_GOODS_POSTPAYMENT',
  'COMMISSION_ON_GOODS',
  'COMMISSION_ON_SERVICES',
  'ACCOUNTING_SERVICES',
  'EXHIBITION_SERVICES',
  'OFFICE_EXPENSES',
  'DELIVERY_FEES',
  'TRAVEL',
  'HOTEL_ACCOMMODATION',
];

export type SenderType = 'INDIVIDUAL' | 'BUSINESS';

const toIndia = (currency: string, country?: string) => currency === 'INR' || country === 'IN';
const businessToChina = (currency: string, country?: string, customerType?: SenderType) =>
  (currency === 'CNY' || country === 'CN') && customerType === 'BUSINESS';

/**
 * Whether a quote must carry `purposeOfPayment`: every payout in INR or to India (the Indian
 * regulator's purpose codes), and a BUSINESS sender's payout in CNY or to China.
 */
export function purposeOfPaymentRequired(receivingCurrency: string, destinationCountry?: string, customerType?: SenderType): boolean {
  return toIndia(receivingCurrency, destinationCountry) || businessToChina(receivingCurrency, destinationCountry, customerType);
}

/** The purposes such a payout may carry: CHINA_BUSINESS_PURPOSES for a business paying China, else all. */
export function allowedPurposesOfPayment(receivingCurrency: string, destinationCountry?: string, customerType?: SenderType): readonly PurposeOfPayment[] {
  return businessToChina(receivingCurrency, destinationCountry, customerType) ? CHINA_BUSINESS_PURPOSES : PURPOSES_OF_PAYMENT;
}

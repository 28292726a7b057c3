/**
 * The public reference's PaymentRail values: the external payment networks a payout can name.
 * Internally a payout also routes by `INTERNAL_TRANSFER`, `UMA` or a wallet's account type; on
 * the wire those are no external rail at all.
 */
export const PAYMENT_RAILS = [
  'ACH',
  'ACH_COLOMBIA',
  'BANK_TRANSFER',
  'BRE_B',
  'CIPS',
  'FAST',
  'FASTER_PAYMENTS',
  'FEDNOW',
  'INSTAPAY',
  'MOBILE_MONEY',
  'NEFT',
  'PAYNOW',
  'PESONET',
  'PIX',
  'RTGS',
  'RTP',
  'SEPA',
  'SEPA_INSTANT',
  'SPEI',
  'SWIFT',
  'UNIONPAY',
  'UPI',
  'WIRE',
] as const;

export type PaymentRail = (typeof PAYMENT_RAILS)[number];

/** The rail as the API shows it: null when no external rail is used (intra-service, UMA, on-chain). */
export function publicRail(rail: string | null | undefined): PaymentRail | null {
  return (PAYMENT_RAILS as readonly string[]).includes(rail ?? '') ? (rail as PaymentRail) : null;
}

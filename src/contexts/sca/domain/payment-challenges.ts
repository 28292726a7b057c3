/**
 * The rules of the SCA challenges that authorize payments (PSD2 dynamic linking): pure, no I/O.
 * A challenge is issued bound to the amount and the payee of its payment; the proof is checked
 * against the binding of the payment as it is then, so a proof never authorizes another payment.
 */

/** The gate that holds an account-funded payment of an SCA customer until its challenge is authorized. */
export const SCA_AUTHORIZATION_GATE = 'scaAuthorization';

/** The factors that can authorize a payment. TOTP cannot carry dynamic linking (its code says nothing of the payment). */
export type PaymentScaFactor = 'SMS_OTP' | 'PASSKEY';
export const PAYMENT_SCA_FACTORS: readonly PaymentScaFactor[] = ['SMS_OTP', 'PASSKEY'];

/** What a challenge authorizes: the payout, or (first, for a cross-currency real-time quote) the conversion of the funds. */
export type ChallengePurpose = 'FX_CONVERSION' | 'PAYOUT';

/** Why a quote is challenged: a real-time quote's funding instructions (at creation), or an execution a gate holds. */
export type ChallengeKind = 'QUOTE_FUNDING' | 'HELD_EXECUTION';

/** SMS codes re-sent per challenge; more is 429 RATE_LIMITED (the customer's phone is not spammed). */
export const MAX_RESENDS = 3;
/**
 * A held payment waits this much longer than its challenge lives: the challenge's own expiry
 * (FAILED, SCA_NOT_COMPLETED) always decides first; the hold's expiry only ends a payment whose
 * challenge was never issued (the process died between the hold and the challenge).
 */
export const HOLD_MARGIN_SECONDS = 300;

/** The factor a payment is challenged with: the one asked for, SMS_OTP by default (TOTP is refused where the request is validated). */
export function paymentFactor(requested: string | null | undefined): PaymentScaFactor {
  return requested === 'PASSKEY' ? 'PASSKEY' : 'SMS_OTP';
}

/**
 * The challenges a quote needs, in order. A real-time quote funded in one currency and paid out
 * in another authorizes the conversion and the payout separately (the reference's example of a
 * quote that carries a next challenge); an execution is authorized by a single challenge.
 */
export function challengePurposes(kind: ChallengeKind, sendingCurrency: string, receivingCurrency: string): ChallengePurpose[] {
  if (kind === 'QUOTE_FUNDING' && sendingCurrency !== receivingCurrency) return ['FX_CONVERSION', 'PAYOUT'];
  return ['PAYOUT'];
}

/** The purpose after step `step`, or null when it was the last. */
export function nextStep(purposes: readonly string[], step: number): number | null {
  return step + 1 < purposes.length ? step + 1 : null;
}

/** How long a challenge lives: its own lifetime, but never past the quote's expiry when the quote can still expire. */
export function challengeTtlMs(now: Date, lifetimeMs: number, quoteExpiresAt: Date | null): number {
  if (!quoteExpiresAt) return lifetimeMs;
  return Math.max(Math.min(lifetimeMs, quoteExpiresAt.getTime() - now.getTime()), 1_000);
}

/** Why a resend is refused, or null: SMS codes only, while pending, within the limit. */
export function resendRefusal(challenge: { factor: string; pending: boolean; resends: number }): 'NOT_PENDING' | 'NOT_RESENDABLE' | 'TOO_MANY' | null {
  if (!challenge.pending) return 'NOT_PENDING';
  if (challenge.factor !== 'SMS_OTP') return 'NOT_RESENDABLE';
  if (challenge.resends >= MAX_RESENDS) return 'TOO_MANY';
  return null;
}

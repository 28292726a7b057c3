/**
 * The SCA challenge a quote carries while PENDING_AUTHORIZATION, as stored on the quote: the
 * reference's ScaChallenge (nothing secret: a passkey's assertion options are public) and where
 * the quote is in its sequence of challenges.
 */
export interface QuoteChallenge {
  id: string;
  expiresAt: string;
  factor: 'SMS_OTP' | 'PASSKEY';
  availableFactors: string[];
  /** What this challenge authorizes: FX_CONVERSION or PAYOUT. */
  purpose: string;
  passkeyAssertionOptions: Record<string, unknown> | null;
  passkeyAllowedOrigins: string[] | null;
  /** QUOTE_FUNDING (a real-time quote's instructions) or HELD_EXECUTION (an execution the SCA gate holds). */
  kind: 'QUOTE_FUNDING' | 'HELD_EXECUTION';
  /** Its index in `purposes`: a quote may need more than one authorization. */
  step: number;
  purposes: string[];
  /** Set once the last challenge of the sequence is authorized: the quote shows no challenge any more, and none is issued again. */
  authorizedAt?: string;
  /** The ids of the quote's challenges authorized so far (a retried authorization is recognised). */
  authorized?: string[];
}

/** Whether the quote still waits for a proof of this challenge. */
export const isPending = (c: QuoteChallenge | null | undefined): c is QuoteChallenge => !!c && !c.authorizedAt;

/** The reference's ScaChallenge. */
export function scaChallengeView(c: QuoteChallenge) {
  return {
    id: c.id,
    expiresAt: c.expiresAt,
    factor: c.factor,
    availableFactors: c.availableFactors,
    purpose: c.purpose,
    passkeyAssertionOptions: c.passkeyAssertionOptions,
    passkeyAllowedOrigins: c.passkeyAllowedOrigins,
  };
}

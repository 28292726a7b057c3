import type { SendWindow } from '../../../domain/send-window';
/** The kinds of credential (the reference's AuthMethodType). */
export const AUTH_METHOD_TYPES = ['EMAIL_OTP', 'SMS_OTP', 'PASSKEY', 'OAUTH'] as const;
export type AuthMethodType = (typeof AUTH_METHOD_TYPES)[number];

export type OtpMethodType = 'EMAIL_OTP' | 'SMS_OTP';

export function isOtpType(type: AuthMethodType): type is OtpMethodType {
  return type === 'EMAIL_OTP' || type === 'SMS_OTP';
}

/** A session's lifetime (reference: 15 minutes by default). */
export const SESSION_TTL_MS = 15 * 60 * 1000;
/** How long a pending signed request waits for its signed retry (reference: about 5 minutes). */
export const SIGNED_REQUEST_TTL_MS = 5 * 60 * 1000;
/** How long an OTP challenge (its code and its HPKE target key) stays usable (reference default: 300 s). */
export const OTP_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Wrong codes tolerated against one challenge; the last one burns it. */
export const MAX_OTP_ATTEMPTS = 5;
/**
 * Codes a credential may be sent in any 15 minutes. Without it, new challenges are free: each
 * one an email or SMS paid for (pumping), and five more guesses at a fresh code.
 */
export const OTP_SEND_WINDOW: SendWindow = { max: 5, windowMs: 15 * 60 * 1000 };
/** The one code the sandbox accepts (spec §5.6). */
export const SANDBOX_OTP_CODE = '000000';

/**
 * A fingerprint of a wallet's live credential set (ids, sorted): a challenge records it, and an
 * operation bound to the set refuses to go on when it changed in between (`*_CREDENTIAL_SET_CHANGED`).
 */
export function credentialSetFingerprint(credentialIds: readonly string[]): string {
  return [...credentialIds].sort().join(',');
}

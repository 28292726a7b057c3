import type { SendWindow } from '../../../domain/send-window';
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../../platforms';

/** The SMS (and, in the sandbox, TOTP) code that is always right with a sandbox token (reference §8 sandbox codes). */
export const SANDBOX_SCA_CODE = '123456';
/** How long an SMS code of a challenge lives. */
export const SCA_CODE_TTL_MS = 5 * 60 * 1000;
/** Wrong proofs a challenge survives; the last one burns it. */
export const MAX_CHALLENGE_ATTEMPTS = 5;
/**
 * SMS codes a customer may ask for (login starts, resends) in any 15 minutes: each one is an SMS
 * paid for. Payment challenges are not counted: each follows a payment the platform made.
 */
export const SCA_SEND_WINDOW: SendWindow = { max: 5, windowMs: 15 * 60 * 1000 };

/** A fresh six-digit SMS code; in the sandbox always the documented one. */
export function newScaCode(environment: Environment): string {
  if (environment === 'SANDBOX') return SANDBOX_SCA_CODE;
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

const HASH_SCHEME = 'hmac-sha256';

/**
 * Keyed hash of a code bound to its challenge id: six digits are too few for a plain hash, so
 * without the master key a copy of the table reveals nothing, and a code is no good for another
 * challenge.
 */
export function hashScaCode(key: Buffer, challengeId: string, code: string): string {
  const mac = createHmac('sha256', key).update(`sca-code\u0000${challengeId}\u0000${code}`).digest('base64url');
  return `${HASH_SCHEME}$${mac}`;
}

export function scaCodeMatches(key: Buffer, challengeId: string, code: string, stored: string | null | undefined): boolean {
  if (!stored?.startsWith(`${HASH_SCHEME}$`)) return false; // a corrupt or foreign-scheme row fails closed
  const expected = Buffer.from(stored, 'utf8');
  const actual = Buffer.from(hashScaCode(key, challengeId, code), 'utf8');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
// No 0/O, 1/I/L: codes are read off paper.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** `XXXX-XXXX-XXXX`: 12 characters of a 31-letter alphabet (59 bits) each. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () =>
    Array.from({ length: 3 }, () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')).join('-'),
  );
}

/** Keyed hash of a recovery code bound to its factor; the codes are shown once and never stored. */
export function hashRecoveryCode(key: Buffer, factorId: string, code: string): string {
  return `hmac-sha256$${createHmac('sha256', key).update(`sca-recovery-code\u0000${factorId}\u0000${code.toUpperCase()}`).digest('base64url')}`;
}

/** Whether `code` has a recovery code's shape (any case), as opposed to an authenticator app's six digits. */
export function looksLikeRecoveryCode(code: string): boolean {
  return /^[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}$/.test(code);
}

/** The hashes left once `code` is spent, or null when it is none of the factor's unspent codes. */
export function spendRecoveryCode(key: Buffer, factorId: string, hashes: readonly string[], code: string): string[] | null {
  const presented = Buffer.from(hashRecoveryCode(key, factorId, code));
  const index = hashes.findIndex((hash) => hash.length === presented.length && timingSafeEqual(Buffer.from(hash), presented));
  return index < 0 ? null : hashes.filter((_, i) => i !== index);
}

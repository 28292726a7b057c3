import { randomBytes, randomInt } from 'node:crypto';
import { hashClientSecret } from '../../../security/secrets';
import { normalizedDeviceCode } from '../domain/device-codes';

// Crockford's base32 alphabet: no I, L, O or U, so a code read aloud or typed is not mistaken.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 4;
const PREFIX = 'SVC-AGENT-';

/**
 * A human-readable device code, `SVC-AGENT-XXXX-XXXX-XXXX-XXXX`: 80 random bits, enough that
 * guessing one (redemption needs no other credential) is hopeless within its day.
 */
export function newDeviceCode(): string {
  const groups = Array.from({ length: GROUPS }, () => Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''));
  return `${PREFIX}${groups.join('-')}`;
}

/** A bearer token: 256 random bits, shown once at redemption. */
export function newAccessToken(): string {
  return `agt_${randomBytes(32).toString('base64url')}`;
}

// Codes and tokens are random (80 and 256 bits): a keyed hash (HMAC under a key derived from the
// master key, as for client secrets) is all they need, and it is their lookup key. Each kind is
// hashed under its own label, so a value of one kind never matches a hash of the other.

export function deviceCodeHash(masterKey: Buffer, code: string): string {
  return hashClientSecret(masterKey, `agent-device-code:${normalizedDeviceCode(code)}`);
}

export function accessTokenHash(masterKey: Buffer, token: string): string {
  return hashClientSecret(masterKey, `agent-access-token:${token}`);
}

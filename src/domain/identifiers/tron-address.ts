import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeBase58Check, encodeBase58Check } from './base58';
import { accepted, type IdentifierCheck, refused } from './check';

/**
 * Tron account addresses: Base58Check of 21 bytes, the prefix byte 0x41 and the last 20 bytes
 * of keccak-256 of the uncompressed secp256k1 public key (so they start with `T`, 34 characters).
 */
const TRON_PREFIX = 0x41;

export function checkTronAddress(value: string): IdentifierCheck {
  if (!value.startsWith('T')) return refused('A Tron address starts with T.');
  if (value.length !== 34) return refused('A Tron address is 34 characters long.');
  const decoded = decodeBase58Check(value);
  if (!decoded.ok) return refused(decoded.reason);
  if (decoded.payload.length !== 21 || decoded.payload[0] !== TRON_PREFIX) {
    return refused('A Tron address must carry 21 bytes starting with 0x41.');
  }
  return accepted(value);
}

/**
 * The Tron address of a secp256k1 public key, given uncompressed: 65 bytes starting 0x04, or the
 * 64 bytes of X and Y.
 */
export function tronAddressFromPublicKey(uncompressedPubkey: Uint8Array): string {
  let xy: Uint8Array;
  if (uncompressedPubkey.length === 65 && uncompressedPubkey[0] === 0x04) xy = uncompressedPubkey.subarray(1);
  else if (uncompressedPubkey.length === 64) xy = uncompressedPubkey;
  else throw new Error('Expected an uncompressed secp256k1 public key (65 bytes starting 0x04, or 64 bytes).');
  const payload = new Uint8Array(21);
  payload[0] = TRON_PREFIX;
  payload.set(keccak_256(xy).subarray(12), 1);
  return encodeBase58Check(payload);
}

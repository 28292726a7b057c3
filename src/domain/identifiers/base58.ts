import { sha256 } from '@noble/hashes/sha2.js';

/**
 * Base58 with the Bitcoin alphabet (no 0, O, I, l), as used by Bitcoin, Solana and Tron, plus
 * Base58Check: a payload followed by the first four bytes of SHA-256(SHA-256(payload)).
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Map<string, number>([...ALPHABET].map((char, i) => [char, i]));

/** The bytes a Base58 string stands for, or `null` when it holds a character outside the alphabet. */
export function decodeBase58(value: string): Uint8Array | null {
  // Each leading '1' is one leading zero byte; the rest is a big-endian base-58 number.
  let zeros = 0;
  while (zeros < value.length && value[zeros] === '1') zeros++;
  // Base-256 digits of the number, least significant first.
  const digits: number[] = [];
  for (let i = zeros; i < value.length; i++) {
    const digit = INDEX.get(value[i]);
    if (digit === undefined) return null;
    let carry = digit;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j] * 58;
      digits[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      digits.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + digits.length);
  for (let i = 0; i < digits.length; i++) out[out.length - 1 - i] = digits[i];
  return out;
}

/** The Base58 string of some bytes (every leading zero byte becomes a leading '1'). */
export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // Base-58 digits of the number, least significant first.
  const digits: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i];
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j] * 256;
      digits[j] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let out = '1'.repeat(zeros);
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i]];
  return out;
}

export type Base58CheckResult = { ok: true; payload: Uint8Array } | { ok: false; reason: string };

const checksumOf = (payload: Uint8Array): Uint8Array => sha256(sha256(payload)).subarray(0, 4);

/** Decodes a Base58Check string and verifies its 4-byte double-SHA-256 checksum. */
export function decodeBase58Check(value: string): Base58CheckResult {
  const bytes = decodeBase58(value);
  if (bytes === null) return { ok: false, reason: 'It contains a character outside the Base58 alphabet.' };
  if (bytes.length < 5) return { ok: false, reason: 'It is too short to carry a Base58Check checksum.' };
  const payload = bytes.subarray(0, bytes.length - 4);
  const expected = checksumOf(payload);
  const actual = bytes.subarray(bytes.length - 4);
  for (let i = 0; i < 4; i++) {
    if (expected[i] !== actual[i]) return { ok: false, reason: 'Its Base58Check checksum does not match.' };
  }
  return { ok: true, payload: Uint8Array.from(payload) };
}

/** The Base58Check string of a payload. */
export function encodeBase58Check(payload: Uint8Array): string {
  const bytes = new Uint8Array(payload.length + 4);
  bytes.set(payload);
  bytes.set(checksumOf(payload), payload.length);
  return encodeBase58(bytes);
}

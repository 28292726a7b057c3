import { keccak_256 } from '@noble/hashes/sha3.js';
import { accepted, type IdentifierCheck, refused } from './check';

/**
 * EVM account addresses (Ethereum and every EVM chain: Base, Polygon, Arbitrum, Plasma…):
 * `0x` and 40 hex digits. All-lower-case and all-upper-case addresses carry no checksum and are
 * accepted; a mixed-case address must match its EIP-55 checksum. The normalized form is EIP-55.
 */
const SHAPE = /^0x[0-9a-fA-F]{40}$/;

/**
 * The EIP-55 form of an address: each letter of the lower-case hex is upper-cased when the
 * matching nibble of keccak-256(lower-case hex as ASCII) is 8 or more.
 */
export function toChecksumAddress(address: string): string {
  if (!SHAPE.test(address)) throw new Error('Not an EVM address: expected 0x followed by 40 hex digits.');
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? hex[i].toUpperCase() : hex[i];
  }
  return out;
}

export function checkEvmAddress(value: string): IdentifierCheck {
  if (!value.startsWith('0x')) return refused('An EVM address starts with 0x.');
  if (value.length !== 42) return refused('An EVM address is 0x followed by exactly 40 hex digits.');
  if (!SHAPE.test(value)) return refused('An EVM address may only contain hex digits after 0x.');
  const checksummed = toChecksumAddress(value);
  const digits = value.slice(2);
  const singleCase = digits === digits.toLowerCase() || digits === digits.toUpperCase();
  if (!singleCase && value !== checksummed) return refused('The EIP-55 checksum (the mix of upper and lower case) does not match.');
  return accepted(checksummed);
}

import { decodeBase58 } from './base58';
import { accepted, type IdentifierCheck, refused } from './check';

/**
 * Solana account addresses: the Base58 form of a 32-byte public key (32 to 44 characters). The
 * check does not require the key to lie on the ed25519 curve: program-derived addresses (for
 * example multisig vaults) are deliberately off the curve and still receive funds.
 */
export function checkSolanaAddress(value: string): IdentifierCheck {
  if (value.length < 32 || value.length > 44) return refused('A Solana address is 32 to 44 Base58 characters.');
  const bytes = decodeBase58(value);
  if (bytes === null) return refused('A Solana address may only contain Base58 characters (no 0, O, I or l).');
  if (bytes.length !== 32) return refused('A Solana address must decode to exactly 32 bytes.');
  // Base58 is canonical: the only spelling of these 32 bytes is the input itself.
  return accepted(value);
}

/** The 32-byte ed25519 public key of a Solana address; throws when the address is not valid. */
export function solanaPublicKey(address: string): Uint8Array {
  const check = checkSolanaAddress(address);
  if (!check.valid) throw new Error(check.reason);
  return decodeBase58(address) as Uint8Array;
}

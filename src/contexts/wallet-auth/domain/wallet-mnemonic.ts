import { entropyToMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';

/**
 * What an export gives the wallet's owner: the BIP-39 mnemonic (English, 24 words) of the wallet's
 * 256-bit seed, as the reference's export plaintext is. The stored seed stays the entropy, so
 * every export of a wallet gives the same words.
 */
export function walletMnemonic(seedHex: string): string {
  return entropyToMnemonic(Uint8Array.from(Buffer.from(seedHex, 'hex')), wordlist);
}

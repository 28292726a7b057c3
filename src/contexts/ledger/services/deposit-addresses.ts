import { createHash } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { DEPOSIT_NETWORKS, type DepositNetwork } from '../../../domain/deposit-networks';
import { encodeBase58, encodeBase58Check } from '../../../domain/identifiers/base58';
import { bytesToWords, encodeBech32 } from '../../../domain/identifiers/bech32';
import { encodeSparkAddress } from '../../../domain/identifiers/spark-address';

/**
 * Deposit addresses derived from a funding reference, one per chain format, so that an account
 * (or a real-time-funded quote) has stable coordinates of its own on the network it is paid on.
 * The sandbox derives them; a production custodian would hand out real ones in the same formats.
 */

const digest = (salt: string, reference: string) => createHash('sha256').update(`${salt}\u0000${reference}`).digest();

/**
 * A Spark address of the account (the embedded wallet's own address for EMBEDDED_WALLET): the
 * Bech32m form of a compressed secp256k1 identity key, as Spark wallets check it.
 */
export function sparkAddress(reference: string): string {
  return encodeSparkAddress(secp256k1.getPublicKey(digest('spark', reference), true));
}

/** `0x` and 40 hex digits: the same address on every EVM chain, as one key has there. */
function evmAddress(reference: string): string {
  return `0x${digest('evm', reference).toString('hex').slice(0, 40)}`;
}

/** Base58 of a 32-byte public key. */
function solanaAddress(reference: string): string {
  return encodeBase58(digest('solana', reference));
}

/** Base58Check of 0x41 and 20 bytes: starts with T, 34 characters. */
function tronAddress(reference: string): string {
  return encodeBase58Check(Uint8Array.from([0x41, ...digest('tron', reference).subarray(0, 20)]));
}

/** A native SegWit (P2WPKH, bech32 version 0) address. */
function bitcoinAddress(reference: string): string {
  return encodeBech32('bc', [0, ...bytesToWords(digest('bitcoin', reference).subarray(0, 20))], 'bech32');
}

/** Where to send `currency` on `network`: the reference's deposit instruction variant of that chain. */
export function depositWalletInfo(network: DepositNetwork, currency: string, reference: string): Record<string, unknown> {
  const { accountType, addressFormat } = DEPOSIT_NETWORKS[network];
  switch (addressFormat) {
    case 'spark':
      return { accountType, address: sparkAddress(reference), assetType: currency };
    case 'evm':
      return { accountType, address: evmAddress(reference), assetType: currency };
    case 'solana':
      return { accountType, address: solanaAddress(reference), assetType: currency };
    case 'tron':
      return { accountType, address: tronAddress(reference), assetType: currency };
    case 'bitcoin':
      return { accountType, address: bitcoinAddress(reference), network };
    case 'invoice':
      // No currency is deposited over Lightning here (domain/deposit-networks.ts).
      throw new Error(`No deposit address on ${network}`);
  }
}

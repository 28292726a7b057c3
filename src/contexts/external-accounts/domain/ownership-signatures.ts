import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeBase58 } from '../../../domain/identifiers/base58';
import { checkEvmAddress } from '../../../domain/identifiers/evm-address';
import { checkSolanaAddress, solanaPublicKey } from '../../../domain/identifiers/solana-address';
import { sparkIdentityPublicKey } from '../../../domain/identifiers/spark-address';
import { checkTronAddress, tronAddressFromPublicKey } from '../../../domain/identifiers/tron-address';
import { WALLET_ADDRESS_FORMATS, isWalletAccountType } from '../../../domain/identifiers/wallet-addresses';

/**
 * Proof that the holder of an external wallet controls its key: a signature over a challenge
 * message, checked for real against the wallet address.
 *
 * - EVM wallets: EIP-191 `personal_sign` (the message is signed as UTF-8 text; a 0x-hex message is
 *   not decoded to bytes first). 65-byte hex signature r‖s‖v, v in {27, 28} or {0, 1}.
 * - Tron: TIP-191 (TronWeb `signMessageV2`), the same shape with the "\x19TRON Signed Message:\n" prefix.
 * - Solana: ed25519 over the UTF-8 message; the 64-byte signature in Base58, hex or base64.
 * - Spark: Bitcoin message signing with the wallet's identity key (see {@link SparkSignatureScheme}).
 *
 * High-s ECDSA signatures are accepted: wallets produce low-s, and a malleated (high-s) copy of a
 * valid signature still proves that the key holder signed this message, which is all an
 * ownership proof needs (Ethereum's ecrecover and Bitcoin's message verification accept both).
 */
export type OwnershipSignatureResult = { valid: true } | { valid: false; reason: string };

/**
 * Spark signature formats, both the 65-byte compact signature (header byte, r, s) in base64 over
 * the Bitcoin signed-message hash:
 * - `bip137` (default): header 27–30 (uncompressed key), 31–34 (compressed), and the BIP-137
 *   SegWit headers 35–38 (P2SH-P2WPKH) and 39–42 (P2WPKH), as Trezor, Ledger, Sparrow… write.
 * - `electrum`: headers 27–34 only; Electrum (and Bitcoin Core) never use the SegWit ranges.
 * The header only contributes the recovery id here: a Spark identity key has no address type, so
 * the compressed/SegWit flags are not compared; the recovered point must equal the identity key.
 * BIP-322 signatures and the Spark SDK's own `signMessageWithIdentityKey` output (ECDSA over
 * SHA-256 of the message, no recovery byte) are not accepted.
 */
export const SPARK_SIGNATURE_SCHEMES = ['bip137', 'electrum'] as const;
export type SparkSignatureScheme = (typeof SPARK_SIGNATURE_SCHEMES)[number];

export interface OwnershipSignatureInput {
  accountType: string;
  address: string;
  message: string;
  signature: string;
  /** Spark only (ignored for other chains); `bip137` when absent. */
  signatureScheme?: string;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** EIP-191 version 0x45: keccak-256("\x19Ethereum Signed Message:\n" + byte length + message). */
export function ethereumMessageHash(message: string): Uint8Array {
  const body = utf8(message);
  return keccak_256(concat(utf8(`\x19Ethereum Signed Message:\n${body.length}`), body));
}

/** TIP-191: keccak-256("\x19TRON Signed Message:\n" + byte length + message). */
export function tronMessageHash(message: string): Uint8Array {
  const body = utf8(message);
  return keccak_256(concat(utf8(`\x19TRON Signed Message:\n${body.length}`), body));
}

/** Bitcoin's CompactSize unsigned integer. */
function compactSize(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >> 8);
  if (n <= 0xffffffff) return Uint8Array.of(0xfe, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff);
  throw new RangeError('Message too long.');
}

/**
 * Bitcoin signed-message hash: double SHA-256 of
 * varint(24) "Bitcoin Signed Message:\n" varint(message byte length) message.
 */
export function bitcoinMessageHash(message: string): Uint8Array {
  const magic = utf8('Bitcoin Signed Message:\n');
  const body = utf8(message);
  return sha256(sha256(concat(compactSize(magic.length), magic, compactSize(body.length), body)));
}

// ---------------------------------------------------------------------------------------------

function parseHex(value: string): Uint8Array | null {
  const hex = value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value;
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function parseBase64(value: string): Uint8Array | null {
  if (value.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return null;
  return Uint8Array.from(Buffer.from(value, 'base64'));
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  let out = 0n;
  for (const byte of bytes) out = (out << 8n) | BigInt(byte);
  return out;
}

/** Recovers the signer's public key from r, s, a recovery id and a message hash, or null. */
function recoverPoint(r: Uint8Array, s: Uint8Array, recovery: number, hash: Uint8Array) {
  try {
    return new secp256k1.Signature(bytesToBigInt(r), bytesToBigInt(s), recovery).recoverPublicKey(hash);
  } catch {
    return null;
  }
}

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, i) => byte === b[i]);

const invalid = (reason: string): OwnershipSignatureResult => ({ valid: false, reason });
const NOT_THE_SIGNER = 'The signature was not made with the key of this address.';

/** The uncompressed public key of an Ethereum-style r‖s‖v signature (65 bytes hex), or a reason. */
function recoverFromRsv(signature: string, hash: Uint8Array): { key: Uint8Array } | { reason: string } {
  const bytes = parseHex(signature);
  if (bytes === null || bytes.length !== 65) return { reason: 'The signature must be 65 bytes in hex (r, s, v).' };
  const v = bytes[64];
  const recovery = v === 27 || v === 28 ? v - 27 : v === 0 || v === 1 ? v : -1;
  if (recovery < 0) return { reason: 'The signature recovery byte v must be 27, 28, 0 or 1.' };
  const point = recoverPoint(bytes.subarray(0, 32), bytes.subarray(32, 64), recovery, hash);
  if (point === null) return { reason: 'The signature is malformed.' };
  return { key: point.toBytes(false) };
}

function verifyEvm(address: string, message: string, signature: string): OwnershipSignatureResult {
  const check = checkEvmAddress(address);
  if (!check.valid) return invalid(check.reason);
  const recovered = recoverFromRsv(signature, ethereumMessageHash(message));
  if ('reason' in recovered) return invalid(recovered.reason);
  const signer = keccak_256(recovered.key.subarray(1)).subarray(12);
  const signerHex = Array.from(signer, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return signerHex === address.slice(2).toLowerCase() ? { valid: true } : invalid(NOT_THE_SIGNER);
}

function verifyTron(address: string, message: string, signature: string): OwnershipSignatureResult {
  const check = checkTronAddress(address);
  if (!check.valid) return invalid(check.reason);
  const recovered = recoverFromRsv(signature, tronMessageHash(message));
  if ('reason' in recovered) return invalid(recovered.reason);
  return tronAddressFromPublicKey(recovered.key) === address ? { valid: true } : invalid(NOT_THE_SIGNER);
}

function verifySolana(address: string, message: string, signature: string): OwnershipSignatureResult {
  const check = checkSolanaAddress(address);
  if (!check.valid) return invalid(check.reason);
  const publicKey = solanaPublicKey(address);
  // The same text can parse in more than one encoding; try each reading that gives 64 bytes.
  const candidates = [decodeBase58(signature), parseHex(signature), parseBase64(signature)].filter(
    (bytes): bytes is Uint8Array => bytes !== null && bytes.length === 64,
  );
  if (candidates.length === 0) return invalid('The signature must be 64 bytes in Base58, hex or base64.');
  const body = utf8(message);
  const verified = candidates.some((bytes) => {
    try {
      return ed25519.verify(bytes, body, publicKey, { zip215: false });
    } catch {
      return false;
    }
  });
  return verified ? { valid: true } : invalid(NOT_THE_SIGNER);
}

function verifySpark(address: string, message: string, signature: string, scheme: string | undefined): OwnershipSignatureResult {
  const chosen = scheme ?? 'bip137';
  if (!(SPARK_SIGNATURE_SCHEMES as readonly string[]).includes(chosen)) {
    return invalid(`Unknown signature scheme ${chosen}: use bip137 or electrum.`);
  }
  let identityKey: Uint8Array;
  try {
    identityKey = sparkIdentityPublicKey(address);
  } catch (error) {
    return invalid((error as Error).message);
  }
  const bytes = parseBase64(signature);
  if (bytes === null || bytes.length !== 65) return invalid('The signature must be 65 bytes in base64 (header, r, s).');
  const header = bytes[0];
  const maxHeader = chosen === 'electrum' ? 34 : 42;
  if (header < 27 || header > maxHeader) return invalid(`The signature header byte must be between 27 and ${maxHeader} for ${chosen}.`);
  const point = recoverPoint(bytes.subarray(1, 33), bytes.subarray(33, 65), (header - 27) & 3, bitcoinMessageHash(message));
  if (point === null) return invalid('The signature is malformed.');
  return equalBytes(point.toBytes(true), identityKey) ? { valid: true } : invalid(NOT_THE_SIGNER);
}

/** Verifies that `signature` over `message` was made with the key behind the wallet `address`. */
export function verifyOwnershipSignature(input: OwnershipSignatureInput): OwnershipSignatureResult {
  const { accountType, address, message, signature, signatureScheme } = input;
  if (!isWalletAccountType(accountType)) return invalid(`ownership signatures are not supported for ${accountType}`);
  switch (WALLET_ADDRESS_FORMATS[accountType]) {
    case 'evm':
      return verifyEvm(address, message, signature);
    case 'tron':
      return verifyTron(address, message, signature);
    case 'solana':
      return verifySolana(address, message, signature);
    case 'spark':
      return verifySpark(address, message, signature, signatureScheme);
  }
}

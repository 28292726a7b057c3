import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { p256 } from '@noble/curves/nist.js';
import { encodeBase58Check } from '../../../domain/identifiers/base58';

/**
 * Secrets handed to the client (a session's signing key, a wallet's exported credentials) are
 * sealed with HPKE (RFC 9180: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM) to the
 * P-256 public key the client sent: only the holder of its private half can open them, and the
 * service keeps no unsealed copy. The AAD binds the ciphertext to both keys (the encapsulated
 * key, then the recipient's, both uncompressed), as the reference's bundles do; the `info`
 * strings are this service's own (the reference leaves them unpublished).
 */
export const SESSION_KEY_INFO = 'svc-session-signing-key-v1';
export const WALLET_EXPORT_INFO = 'svc-wallet-export-v1';

const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });

/** A client public key (compressed 02/03 or uncompressed 04 hex) as the 65 uncompressed bytes HPKE wants. */
export function uncompressedPublicKey(clientPublicKeyHex: string): Uint8Array {
  return p256.Point.fromHex(clientPublicKeyHex).toBytes(false);
}

export interface ClientSeal {
  /** The encapsulated (ephemeral) public key, 65 bytes uncompressed. */
  enc: Uint8Array;
  ciphertext: Uint8Array;
}

export function sealingAad(enc: Uint8Array, recipient: Uint8Array): Uint8Array {
  const aad = new Uint8Array(enc.length + recipient.length);
  aad.set(enc, 0);
  aad.set(recipient, enc.length);
  return aad;
}

/** Seals bytes to the client's key; throws on a key that is not a P-256 point. */
export async function sealToClient(clientPublicKeyHex: string, plaintext: Uint8Array, info: string): Promise<ClientSeal> {
  const recipient = uncompressedPublicKey(clientPublicKeyHex);
  const recipientPublicKey = await suite.kem.deserializePublicKey(recipient);
  const sender = await suite.createSenderContext({ recipientPublicKey, info: new TextEncoder().encode(info) });
  const enc = new Uint8Array(sender.enc);
  const ciphertext = new Uint8Array(await sender.seal(plaintext, sealingAad(enc, recipient)));
  return { enc, ciphertext };
}

/**
 * `encryptedSessionSigningKey`: base58check of the compressed encapsulated key (33 bytes) followed
 * by the AES-256-GCM ciphertext and tag of the session's 32-byte P-256 private scalar.
 */
export async function sealSessionSigningKey(clientPublicKeyHex: string, sessionPrivateKey: Uint8Array): Promise<string> {
  const { enc, ciphertext } = await sealToClient(clientPublicKeyHex, sessionPrivateKey, SESSION_KEY_INFO);
  const compressedEnc = p256.Point.fromBytes(enc).toBytes(true);
  const payload = new Uint8Array(compressedEnc.length + ciphertext.length);
  payload.set(compressedEnc, 0);
  payload.set(ciphertext, compressedEnc.length);
  return encodeBase58Check(payload);
}

/** A fresh session key pair: the private scalar (to be sealed to the client, never stored) and the compressed public key (stored). */
export function newSessionKeyPair(): { privateKey: Uint8Array; publicKeyHex: string } {
  const privateKey = p256.utils.randomSecretKey();
  return { privateKey, publicKeyHex: Buffer.from(p256.getPublicKey(privateKey, true)).toString('hex') };
}

/**
 * `encryptedWalletCredentials` of an export: the reference's envelope, a JSON string
 * `{version, data, dataSignature, enclaveQuorumPublic}` whose `data` is the hex of
 * `{encappedPublic, ciphertext, organizationId}` (hex strings). This service has no signing
 * enclave, so `dataSignature` and `enclaveQuorumPublic` are empty, as in the reference's sandbox.
 */
export async function sealWalletExport(clientPublicKeyHex: string, organizationId: string, secret: string): Promise<string> {
  const { enc, ciphertext } = await sealToClient(clientPublicKeyHex, new TextEncoder().encode(secret), WALLET_EXPORT_INFO);
  const data = JSON.stringify({ encappedPublic: Buffer.from(enc).toString('hex'), ciphertext: Buffer.from(ciphertext).toString('hex'), organizationId });
  return JSON.stringify({ version: 'v1.0.0', data: Buffer.from(data, 'utf8').toString('hex'), dataSignature: '', enclaveQuorumPublic: '' });
}

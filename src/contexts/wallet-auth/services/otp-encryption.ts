import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { p256 } from '@noble/curves/nist.js';
import { hkdfSync } from 'node:crypto';
import { isCompressedPublicKey, normalizeKeyHex } from '../domain/p256-keys';

/**
 * HPKE for OTP logins (reference inventory §7.4): the service publishes a fresh P-256 target key
 * per challenge (`otpEncryptionTargetBundle`), the client seals `{otp_code, public_key}` to it,
 * and only the service, holding the private half, opens it. Base mode, DHKEM(P-256, HKDF-SHA256),
 * HKDF-SHA256, AES-256-GCM; info `turnkey_hpke` and AAD = encapsulated key ‖ target key (both
 * uncompressed), the parameters of Turnkey's client library.
 */
const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
export const OTP_HPKE_INFO = 'turnkey_hpke';
const BUNDLE_VERSION = 'v1.0.0';
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));

/** A fresh HPKE recipient key pair: the private scalar (kept sealed) and the uncompressed public key (published). */
export function newOtpTargetKey(): { privateKey: string; targetPublic: string } {
  const secret = p256.utils.randomSecretKey();
  return { privateKey: hex(secret), targetPublic: hex(p256.getPublicKey(secret, false)) };
}

/** The key that signs target bundles (the bundle's "enclave quorum" key): derived from the master key under its own label. */
function bundleSigningKey(masterKey: Buffer): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'wallet-otp-bundle-signing-v1', 32));
}

/**
 * The `otpEncryptionTargetBundle`: JSON `{version, data, dataSignature, enclaveQuorumPublic}`,
 * `data` the hex of `{"targetPublic": …}`, signed (P-256 ECDSA-SHA256, DER hex) by the service's
 * bundle key, so a client can check where the target key comes from.
 */
export function otpTargetBundle(masterKey: Buffer, targetPublic: string): string {
  const data = Buffer.from(JSON.stringify({ targetPublic }), 'utf8');
  const key = bundleSigningKey(masterKey);
  const dataSignature = hex(p256.sign(new Uint8Array(data), key, { prehash: true, format: 'der' }));
  return JSON.stringify({ version: BUNDLE_VERSION, data: data.toString('hex'), dataSignature, enclaveQuorumPublic: hex(p256.getPublicKey(key, false)) });
}

/** What the client sealed: its code attempt and the compressed public key it will sign with. */
export interface OtpAttempt {
  otpCode: string;
  publicKey: string;
}

/** HPKE's encapsulated key for DHKEM(P-256): an uncompressed point, 65 bytes. */
const ENCAPPED_KEY_HEX_LENGTH = 130;
const MAX_CIPHERTEXT_HEX_LENGTH = 8192;

/**
 * The parts of an `encryptedOtpBundle`: a JSON object `{encappedPublic, ciphertext}`, both hex,
 * the key an uncompressed P-256 point's length and the ciphertext at most 4 KiB. Null for
 * anything else: malformed input, told apart from a well-formed bundle that does not open.
 */
export function otpBundleParts(encryptedOtpBundle: string): { encappedPublic: string; ciphertext: string } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(encryptedOtpBundle);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const { encappedPublic, ciphertext } = parsed as Record<string, unknown>;
  if (typeof encappedPublic !== 'string' || typeof ciphertext !== 'string' || !HEX.test(encappedPublic) || !HEX.test(ciphertext)) return null;
  if (encappedPublic.length !== ENCAPPED_KEY_HEX_LENGTH || ciphertext.length > MAX_CIPHERTEXT_HEX_LENGTH) return null;
  return { encappedPublic, ciphertext };
}

/**
 * Opens an `encryptedOtpBundle` (JSON `{encappedPublic, ciphertext}`, hex) with the challenge's
 * private key. Null when it is not such a bundle, was not sealed to this key, or does not hold
 * `{otp_code: string, public_key: compressed P-256 hex}`.
 */
export async function openOtpBundle(privateKey: string, encryptedOtpBundle: string): Promise<OtpAttempt | null> {
  const parts = otpBundleParts(encryptedOtpBundle);
  if (!parts) return null;
  const { encappedPublic, ciphertext } = parts;
  try {
    const secret = bytesOf(privateKey);
    const targetPublic = p256.getPublicKey(secret, false);
    const enc = bytesOf(encappedPublic);
    const recipientKey = await suite.kem.deserializePrivateKey(secret);
    const opened = await suite.open(
      { recipientKey, enc, info: new TextEncoder().encode(OTP_HPKE_INFO) },
      bytesOf(ciphertext),
      new Uint8Array([...enc, ...targetPublic]),
    );
    const attempt = JSON.parse(new TextDecoder().decode(opened)) as Record<string, unknown>;
    if (typeof attempt.otp_code !== 'string' || !isCompressedPublicKey(attempt.public_key)) return null;
    return { otpCode: attempt.otp_code, publicKey: normalizeKeyHex(attempt.public_key) };
  } catch {
    return null;
  }
}

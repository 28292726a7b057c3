import { p256 } from '@noble/curves/nist.js';
import { isCompressedPublicKey, normalizeKeyHex } from './p256-keys';

/** The stamp's scheme: a Turnkey API-key stamp (P-256 ECDSA over SHA-256). */
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';
/** The deprecated literal the sandbox still accepts in place of a stamp (spec §5.6, §9). */
export const LEGACY_SANDBOX_SIGNATURE = 'sandbox-valid-signature';

/** A decoded `Svc-Wallet-Signature` header (reference inventory §7.2). */
export interface Stamp {
  /** Compressed SEC1 hex, lowercase. */
  publicKey: string;
  scheme: typeof STAMP_SCHEME;
  /** DER-encoded ECDSA signature, hex. */
  signature: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;
/** The longest DER a P-256 signature can take (2 × 33-byte integers with headers): 72 bytes. */
const MAX_DER_HEX = 144;

/**
 * Decodes a stamp: base64url of the JSON `{publicKey, scheme, signature}`. Returns null for
 * anything else (bad encoding, not an object, a missing or mistyped field, an unknown scheme, a
 * key that is not a compressed P-256 point, a signature that is not DER): WALLET_SIGNATURE_MALFORMED.
 */
export function parseStamp(header: string): Stamp | null {
  if (!BASE64URL.test(header) || header.length > 4096) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) return null;
  const { publicKey, scheme, signature } = decoded as Record<string, unknown>;
  if (scheme !== STAMP_SCHEME || !isCompressedPublicKey(publicKey)) return null;
  if (typeof signature !== 'string' || !HEX.test(signature) || signature.length > MAX_DER_HEX) return null;
  try {
    p256.Point.fromHex(publicKey);
    p256.Signature.fromBytes(Buffer.from(signature, 'hex'), 'der');
  } catch {
    return null;
  }
  return { publicKey: normalizeKeyHex(publicKey), scheme: STAMP_SCHEME, signature: signature.toLowerCase() };
}

/**
 * Whether the stamp's signature is a P-256 ECDSA signature of SHA-256(UTF-8 payload) by the
 * stamp's own key. High-S signatures are accepted (WebCrypto and many signers do not normalise S).
 */
export function stampSignsPayload(stamp: Stamp, payload: string): boolean {
  try {
    return p256.verify(Buffer.from(stamp.signature, 'hex'), new TextEncoder().encode(payload), Buffer.from(stamp.publicKey, 'hex'), {
      prehash: true,
      format: 'der',
      lowS: false,
    });
  } catch {
    return false;
  }
}

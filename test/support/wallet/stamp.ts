import { p256 } from '@noble/curves/nist.js';
import type { DeviceKey } from './keys';

/**
 * The `Svc-Wallet-Signature` value a client builds over `payloadToSign` (reference inventory §7.2):
 * ECDSA P-256 over SHA-256 of the exact UTF-8 payload, DER hex, in the JSON
 * `{publicKey, scheme, signature}`, base64url without padding.
 */
export function stamp(key: DeviceKey, payloadToSign: string): string {
  const signature = Buffer.from(p256.sign(new TextEncoder().encode(payloadToSign), key.privateKey, { prehash: true, format: 'der' })).toString('hex');
  return stampOf({ publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature });
}

/** Encodes any stamp-shaped object (tests build broken ones with it). */
export function stampOf(fields: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');
}

/** The headers of a signed retry. */
export function signedHeaders(key: DeviceKey, challenge: { payloadToSign: string; requestId: string }): Record<string, string> {
  return { 'Svc-Wallet-Signature': stamp(key, challenge.payloadToSign), 'Request-Id': challenge.requestId };
}

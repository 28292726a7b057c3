import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/** Header carrying the signature; the public API's name is accepted as an alias by receivers. */
export const SIGNATURE_HEADER = 'X-Svc-Signature';
export const SIGNATURE_HEADER_ALIAS = 'X-Grid-Signature';

export function generateSigningKeyPair(): { publicKeyPem: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/**
 * Signs the exact body bytes: ECDSA P-256 over SHA-256, DER-encoded, base64. The header value
 * is `{"v":"1","s":"<base64>"}`.
 */
export function signWebhookBody(privateKey: string | KeyObject, body: string): string {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  const signature = sign('sha256', Buffer.from(body, 'utf8'), { key, dsaEncoding: 'der' });
  return JSON.stringify({ v: '1', s: signature.toString('base64') });
}

/** What a receiver does: parse the header (JSON or bare base64) and verify against the raw body. */
export function verifyWebhookSignature(publicKeyPem: string, rawBody: string | Buffer, headerValue: string): boolean {
  let encoded = headerValue.trim();
  if (encoded.startsWith('{')) {
    try {
      const parsed = JSON.parse(encoded) as { s?: unknown };
      if (typeof parsed.s !== 'string') return false;
      encoded = parsed.s;
    } catch {
      return false;
    }
  }
  try {
    return verify('sha256', typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody, { key: createPublicKey(publicKeyPem), dsaEncoding: 'der' }, Buffer.from(encoded, 'base64'));
  } catch {
    return false;
  }
}

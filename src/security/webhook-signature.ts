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
  return JSON.stringify({ v: '1', s: signature(privateKey, body) });
}

function signature(privateKey: string | KeyObject, body: string): string {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  return sign('sha256', Buffer.from(body, 'utf8'), { key, dsaEncoding: 'der' }).toString('base64');
}

/** At most this many signatures are looked at in one header (a rotation has two keys sign). */
export const MAX_SIGNATURES = 4;

/**
 * Signs with every key that signs now (oldest first). One key: `{"v":"1","s":…}` as always.
 * During a rotation's overlap `s` is the oldest key's signature — the key receivers that read only
 * `s` still hold — and `sigs` carries one `{kid, s}` per key, so that a receiver holding either
 * the old or the new public key verifies the delivery.
 */
export function signWebhookBodyWithKeys(keys: { id: string; privateKey: string | KeyObject }[], body: string): string {
  if (keys.length === 0) throw new Error('no signing key');
  const signatures = keys.map((k) => ({ kid: k.id, s: signature(k.privateKey, body) }));
  if (signatures.length === 1) return JSON.stringify({ v: '1', s: signatures[0]!.s });
  return JSON.stringify({ v: '1', s: signatures[0]!.s, sigs: signatures });
}

/**
 * What a receiver does: parse the header (JSON or bare base64) and verify against the raw body.
 * True when `s` or any signature in `sigs` verifies with the key.
 */
export function verifyWebhookSignature(publicKeyPem: string, rawBody: string | Buffer, headerValue: string): boolean {
  let candidates: string[];
  const trimmed = headerValue.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as { s?: unknown; sigs?: unknown };
      candidates = [
        parsed.s,
        ...(Array.isArray(parsed.sigs)
          ? parsed.sigs.slice(0, MAX_SIGNATURES).map((x: unknown) => (x && typeof x === 'object' ? (x as { s?: unknown }).s : undefined))
          : []),
      ].filter((x): x is string => typeof x === 'string');
    } catch {
      return false;
    }
  } else {
    candidates = [trimmed];
  }
  let key: KeyObject;
  try {
    key = createPublicKey(publicKeyPem);
  } catch {
    return false;
  }
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  return candidates.some((encoded) => {
    try {
      return verify('sha256', body, { key, dsaEncoding: 'der' }, Buffer.from(encoded, 'base64'));
    } catch {
      return false;
    }
  });
}

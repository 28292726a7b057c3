import { createHash, createHmac } from 'node:crypto';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Canonical JSON: object keys sorted, so semantically equal bodies fingerprint equally. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value as Record<string, unknown>).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/**
 * What makes two requests "the same request" for Idempotency-Key purposes. With a key (the
 * service passes its master key) the digest is keyed: bodies carry secrets of little entropy
 * (a nine-digit SSN), which a plain hash stored with the record would let anyone with the
 * rest of the body recover by trying every value.
 */
export function requestFingerprint(method: string, path: string, body: unknown, key?: Buffer): string {
  const text = `${method.toUpperCase()} ${path}\n${canonicalJson(body ?? null)}`;
  return key ? createHmac('sha256', key).update(`idempotency-fingerprint\u0000${text}`).digest('hex') : createHash('sha256').update(text).digest('hex');
}

import { createHash } from 'node:crypto';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Canonical JSON: object keys sorted, so semantically equal bodies fingerprint equally. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value as Record<string, unknown>).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** What makes two requests "the same request" for Idempotency-Key purposes. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method.toUpperCase()} ${path}\n${canonicalJson(body ?? null)}`).digest('hex');
}

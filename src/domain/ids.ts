import { createHash, randomUUID } from 'node:crypto';

/** Resource id prefixes; every public id is `<Type>:<uuid>`. */
export const ID_TYPES = [
  'Platform',
  'Token',
  'Customer',
  'InternalAccount',
  'ExternalAccount',
  'Quote',
  'Transaction',
  'Webhook',
  'Request',
  'Verification',
  'Document',
  'BeneficialOwner',
  'JournalEntry',
  'Lookup',
  'Card',
  'CardTransaction',
  'Job',
  'Stablecoin',
  'StablecoinOperation',
  'StablecoinProviderAccount',
  'WebhookSigningKey',
  'AuthMethod',
  'Session',
  // Strong Customer Authentication (sca context)
  'ScaChallenge',
  'ScaCodeSend',
  'ScaFactor',
  'ScaReset',
  'ScaSession',
  'DelegatedKey',
] as const;
export type IdType = (typeof ID_TYPES)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function newId(type: IdType): string {
  return `${type}:${randomUUID()}`;
}

/**
 * A stable id derived from a caller's idempotency key, so that a retried request that
 * slipped past the idempotency store still maps to the same workflow id (and Temporal
 * refuses to start a second payment).
 */
export function derivedId(type: IdType, ...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  // UUID version 8 (custom), RFC 9562 variant bits.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return `${type}:${uuid}`;
}

export function isId(type: IdType, value: string): boolean {
  const prefix = `${type}:`;
  return value.startsWith(prefix) && UUID.test(value.slice(prefix.length));
}

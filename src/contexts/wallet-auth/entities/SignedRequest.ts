import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * A wallet operation waiting for its owner's signature (`Request:<uuid>`): the 202 of the first
 * call. It binds the request (method, path, canonical body) and the exact payload to sign; the
 * signed retry consumes it, once, in the transaction of the operation's effect.
 */
@Entity({ tableName: 'signed_requests' })
export class SignedRequest {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  /** The EMBEDDED_WALLET internal account whose session must sign. */
  @Property({ type: 'string' }) accountId!: string;
  /** The operation's name (SignedOperation.name), e.g. AUTH_CREDENTIAL_REVOKE. */
  @Property({ type: 'string' }) operation!: string;
  /** Requests of one group on one wallet exclude each other while pending (409 OPERATION_IN_PROGRESS). */
  @Property({ type: 'string', nullable: true }) conflictGroup?: string | null;
  /** SHA-256 of the bound request: method, path and canonical body (requestFingerprint). */
  @Property({ type: 'string' }) requestHash!: string;
  /** Exactly what the owner signs, byte for byte. */
  @Property({ type: 'text' }) payloadToSign!: string;
  /** What the first call established and the retry needs (never a secret). */
  @Property({ type: 'json', nullable: true }) data?: Record<string, unknown> | null;
  @Property({ type: 'datetime' }) expiresAt!: Date;
  @Property({ type: 'datetime', nullable: true }) consumedAt?: Date | null;
  /** The session whose key signed the retry (null for the sandbox's legacy literal or a bound key). */
  @Property({ type: 'string', nullable: true }) signedBySessionId?: string | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { DelegatedKeyStatus } from '../domain/delegated-keys';

/**
 * A card signing key the service holds for an embedded wallet that funds a card: created by the
 * wallet owner's three-leg signed request (PENDING after the second leg, ACTIVE after the third),
 * revoked by the platform. The private key is generated here and kept sealed under the master key.
 */
@Entity({ tableName: 'delegated_keys' })
export class DelegatedKey {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) cardId!: string;
  /** The card's funding source the key signs for: in this service a funding source is the internal account itself. */
  @Property({ type: 'string' }) fundingSourceId!: string;
  /** The EMBEDDED_WALLET internal account. */
  @Property({ type: 'string' }) accountId!: string;
  /** Compressed P-256 public key, hex. */
  @Property({ type: 'string' }) publicKey!: string;
  /** The private scalar, encrypted with the master key (never in a view, a log line or an event). */
  @Property({ type: 'string', lazy: true }) sealedPrivateKey!: string;
  @Property({ type: 'string' }) nickname!: string;
  @Property({ type: 'string' }) status!: DelegatedKeyStatus;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** The stored outcome of a request sent with an Idempotency-Key, per platform. */
@Entity({ tableName: 'idempotency_keys' })
export class IdempotencyRecord {
  @PrimaryKey({ type: 'string' }) platformId!: string;
  @PrimaryKey({ type: 'string' }) key!: string;
  @Property({ type: 'string' }) fingerprint!: string;
  @Property({ type: 'string' }) state!: 'IN_PROGRESS' | 'COMPLETED';
  @Property({ type: 'integer', nullable: true }) statusCode?: number | null;
  /** The response body exactly as sent, so a replay is byte-for-byte the same. */
  @Property({ type: 'text', nullable: true }) responseBody?: string | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  /** Renewed by the request holding an IN_PROGRESS claim while it works; a silent claim is stale. */
  @Property({ type: 'datetime' }) renewedAt!: Date;
  @Property({ type: 'datetime', nullable: true }) completedAt?: Date | null;
}

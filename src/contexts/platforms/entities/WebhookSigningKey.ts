import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Environment } from './ApiToken';

/**
 * A webhook-signing P-256 key pair of one platform in one environment; the private half is
 * stored sealed with the master key. Generations count up per platform and environment: the
 * newest is the current key, an older one verifies until `expiresAt` (the rotation's overlap).
 */
@Entity({ tableName: 'webhook_signing_keys' })
export class WebhookSigningKey {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) environment!: Environment;
  @Property({ type: 'integer' }) generation!: number;
  @Property({ type: 'text' }) publicKeyPem!: string;
  @Property({ type: 'text' }) privateKeyEncrypted!: string;
  @Property({ type: 'datetime' }) createdAt!: Date;
  /** Null while it is the current key; set by a rotation to the end of the overlap. */
  @Property({ type: 'datetime', nullable: true }) expiresAt?: Date | null;
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * An embedded wallet's secret (its 256-bit seed), generated once and kept encrypted under the
 * master key; it leaves the service only HPKE-sealed to the key of a signed export request.
 */
@Entity({ tableName: 'wallet_secrets' })
export class WalletSecret {
  /** The EMBEDDED_WALLET internal account. */
  @PrimaryKey({ type: 'string' }) accountId!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string', lazy: true }) sealedSeed!: string;
  @Property({ type: 'datetime' }) createdAt!: Date;
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Environment } from '../../platforms';
import type { GridOperationsStatus, IssuanceStatus, StablecoinNetwork, StablecoinProvider } from '../domain/stablecoin-states';

/** A provider-created token registered by a platform. Its id is also its issuance workflow's id. */
@Entity({ tableName: 'stablecoins' })
export class Stablecoin {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) environment!: Environment;
  @Property({ type: 'string' }) providerAccountLinkId!: string;
  @Property({ type: 'string' }) provider!: StablecoinProvider;
  @Property({ type: 'string' }) providerTokenIdentifier!: string;
  @Property({ type: 'string' }) networkTokenIdentifier!: string;
  @Property({ type: 'string' }) network!: StablecoinNetwork;
  @Property({ type: 'string' }) name!: string;
  @Property({ type: 'string' }) symbol!: string;
  @Property({ type: 'string' }) baseCurrency!: string;
  @Property({ type: 'integer' }) decimals!: number;
  @Property({ type: 'string' }) issuanceStatus!: IssuanceStatus;
  @Property({ type: 'string' }) gridOperationsStatus!: GridOperationsStatus;
  /** Its currency code for grid operations, set once they are ENABLED. */
  @Property({ type: 'string', nullable: true }) currency?: string | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

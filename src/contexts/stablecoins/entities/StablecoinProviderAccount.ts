import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Environment } from '../../platforms';
import type { ProviderAccountStatus, StablecoinProvider } from '../domain/stablecoin-states';

/** A platform's link to its account at a stablecoin provider, with the API credentials sealed. */
@Entity({ tableName: 'stablecoin_provider_accounts' })
export class StablecoinProviderAccount {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) environment!: Environment;
  @Property({ type: 'string' }) provider!: StablecoinProvider;
  @Property({ type: 'string' }) providerAccountId!: string;
  @Property({ type: 'string' }) status!: ProviderAccountStatus;
  /** `{apiClientId, apiClientSecret}` sealed with the master key; read only to call the provider. */
  @Property({ type: 'string', lazy: true }) sealedCredentials!: string;
  @Property({ type: 'datetime', nullable: true }) lastVerifiedAt?: Date | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

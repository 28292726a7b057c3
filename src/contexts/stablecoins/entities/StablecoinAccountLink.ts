import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { AddressLinkStatus } from '../domain/provider';

/** How a provider account knows one of the platform's external accounts (made on first use). */
@Entity({ tableName: 'stablecoin_account_links' })
export class StablecoinAccountLink {
  @PrimaryKey({ type: 'string' }) providerAccountLinkId!: string;
  @PrimaryKey({ type: 'string' }) externalAccountId!: string;
  @Property({ type: 'string' }) status!: AddressLinkStatus;
  @Property({ type: 'string', nullable: true }) providerAddressId?: string | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type InternalAccountType = 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO' | 'EMBEDDED_WALLET';
export type InternalAccountStatus = 'PENDING' | 'ACTIVE' | 'CLOSED' | 'FROZEN' | 'FAILED';

/** A balance held by the service; its money lives in the ledger account with the same id. */
@Entity({ tableName: 'internal_accounts' })
export class InternalAccount {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  /** Null for accounts owned by the platform itself. */
  @Property({ type: 'string', nullable: true }) customerId?: string | null;
  @Property({ type: 'string' }) currency!: string;
  @Property({ type: 'string' }) type!: InternalAccountType;
  @Property({ type: 'string' }) status!: InternalAccountStatus;
  /** Unique reference a depositor quotes so the funds land on this account. */
  @Property({ type: 'string' }) fundingReference!: string;
  /** Wallet privacy; set (false until toggled) on EMBEDDED_WALLET accounts only, null otherwise. */
  @Property({ type: 'boolean', nullable: true }) privateEnabled?: boolean | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

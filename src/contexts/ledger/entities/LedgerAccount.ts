import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type LedgerAccountKind = 'INTERNAL_ACCOUNT' | 'SANDBOX_FUNDING_SOURCE' | 'RAIL_CLEARING' | 'PENDING_OUTGOING' | 'PLATFORM_FEES' | 'SERVICE_REVENUE' | 'RETURN_SHORTFALL' | 'CARD_HOLDS' | 'CARD_NETWORK' | 'STABLECOIN_RESERVE' | 'STABLECOIN_SUPPLY';

/**
 * A double-entry account. `balance` is the running sum of its postings (available funds);
 * `held` is money reserved but not yet gone. Both change only together with postings.
 */
@Entity({ tableName: 'ledger_accounts' })
export class LedgerAccount {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) kind!: LedgerAccountKind;
  @Property({ type: 'string' }) currency!: string;
  @Property({ type: 'boolean' }) allowNegative!: boolean;
  @Property({ type: 'bigint' }) balance!: bigint;
  @Property({ type: 'bigint' }) held!: bigint;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

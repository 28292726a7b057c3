import { OptionalProps } from '@mikro-orm/core';
import { Entity, Formula, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type LedgerAccountKind =
  | 'INTERNAL_ACCOUNT'
  | 'SANDBOX_FUNDING_SOURCE'
  | 'RAIL_CLEARING'
  | 'PENDING_OUTGOING'
  | 'PLATFORM_FEES'
  | 'SERVICE_REVENUE'
  | 'RETURN_SHORTFALL'
  | 'CARD_HOLDS'
  | 'CARD_NETWORK'
  | 'STABLECOIN_RESERVE'
  | 'STABLECOIN_SUPPLY';

/**
 * A double-entry account. `balance` is the sum of its postings (available funds): kept as a
 * running balance under the row lock for a protected account (`storedBalance`), derived from
 * the postings for one that may go negative, whose row postEntry never locks nor writes (see
 * domain/ledger keepsRunningBalance). `held` is money reserved but not yet gone, on protected
 * accounts only. Both change only together with postings.
 */
@Entity({ tableName: 'ledger_accounts' })
export class LedgerAccount {
  /** Computed by the database, never given. */
  [OptionalProps]?: 'balance';
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) kind!: LedgerAccountKind;
  @Property({ type: 'string' }) currency!: string;
  @Property({ type: 'boolean' }) allowNegative!: boolean;
  /** The running balance of a protected account; stays 0 on an account that keeps none. */
  @Property({ type: 'bigint', fieldName: 'balance' }) storedBalance!: bigint;
  @Formula<LedgerAccount>(
    (c) =>
      `(case when ${c.allowNegative} then (select coalesce(sum(p.amount), 0) from postings p where p.account_id = ${c.id}) else ${c.storedBalance} end)::bigint`,
    { type: 'bigint' },
  )
  balance!: bigint;
  @Property({ type: 'bigint' }) held!: bigint;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

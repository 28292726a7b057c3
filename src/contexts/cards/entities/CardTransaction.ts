import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { CardTransactionStatus, Direction } from '../domain/card-transactions';

export type CardTransactionKind =
  'AUTHORIZATION' | 'CREDIT_AUTHORIZATION' | 'FINANCIAL_AUTHORIZATION' | 'FINANCIAL_CREDIT_AUTHORIZATION' | 'CREDIT_AUTHORIZATION_ADVICE';

export interface CardMerchant {
  descriptor: string;
  mcc?: string;
  country?: string;
}

/** One authorization and every clearing, return and advice reconciled against it (reference CardTransaction). */
@Entity({ tableName: 'card_transactions' })
export class CardTransaction {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) cardId!: string;
  @Property({ type: 'string' }) customerId!: string;
  /** The funding internal account chosen at authorization. */
  @Property({ type: 'string' }) accountId!: string;
  @Property({ type: 'string' }) currency!: string;
  @Property({ type: 'string' }) direction!: Direction;
  @Property({ type: 'string' }) status!: CardTransactionStatus;
  @Property({ type: 'string' }) kind!: CardTransactionKind;
  @Property({ type: 'json' }) merchant!: CardMerchant;
  @Property({ type: 'string' }) issuerTransactionToken!: string;
  @Property({ type: 'bigint' }) authorizedAmount!: bigint;
  /** Still held on the funding account for this authorization. */
  @Property({ type: 'bigint' }) heldAmount!: bigint;
  @Property({ type: 'bigint' }) settledAmount!: bigint;
  @Property({ type: 'bigint' }) refundedAmount!: bigint;
  @Property({ type: 'integer' }) settlementCount!: number;
  @Property({ type: 'integer' }) refundCount!: number;
  /** Pulls whose confirmation has not come yet (sandbox delayed-pull descriptors). */
  @Property({ type: 'integer' }) pendingPulls!: number;
  /** Events applied so far: each one's ledger entry and webhook are keyed by its number. */
  @Property({ type: 'integer' }) eventCount!: number;
  /** When an open authorization's remaining hold is released. */
  @Property({ type: 'datetime', nullable: true }) expiresAt?: Date | null;
  @Property({ type: 'datetime' }) authorizedAt!: Date;
  @Property({ type: 'datetime' }) lastEventAt!: Date;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

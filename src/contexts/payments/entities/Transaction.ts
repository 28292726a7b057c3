import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

import type { TransactionStatus, TransactionType } from '../domain/transaction-state';

export type { TransactionStatus, TransactionType };

export interface RefundState {
  reference: string;
  initiatedAt: string;
  settledAt?: string;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  reason?: 'TRANSACTION_FAILED' | 'USER_CANCELLATION' | 'TIMEOUT';
}

/** A payment. Its id is also the id of the workflow that drives it. */
@Entity({ tableName: 'transactions' })
export class Transaction {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string', nullable: true }) customerId?: string | null;
  @Property({ type: 'string' }) type!: TransactionType;
  @Property({ type: 'string' }) direction!: 'CREDIT' | 'DEBIT';
  @Property({ type: 'string' }) status!: TransactionStatus;
  @Property({ type: 'json' }) source!: Record<string, unknown>;
  @Property({ type: 'json' }) destination!: Record<string, unknown>;
  @Property({ type: 'bigint' }) receivedAmount!: bigint;
  @Property({ type: 'string' }) receivedCurrency!: string;
  @Property({ type: 'string', nullable: true }) failureReason?: string | null;
  @Property({ type: 'string', nullable: true }) description?: string | null;
  @Property({ type: 'datetime', nullable: true }) settledAt?: Date | null;
  // Outgoing payments: the quote they execute, what left the source and at which price.
  @Property({ type: 'string', nullable: true }) quoteId?: string | null;
  /** The agent whose action made this transaction (the reference's agentId), null otherwise. */
  @Property({ type: 'string', nullable: true }) agentId?: string | null;
  @Property({ type: 'bigint', nullable: true }) sentAmount?: bigint | null;
  @Property({ type: 'string', nullable: true }) sentCurrency?: string | null;
  @Property({ type: 'bigint', nullable: true }) fees?: bigint | null;
  @Property({ type: 'bigint', nullable: true }) platformFees?: bigint | null;
  @Property({ type: 'double', nullable: true }) exchangeRate?: number | null;
  @Property({ type: 'json', nullable: true }) rateDetails?: Record<string, unknown> | null;
  @Property({ type: 'string', nullable: true }) paymentRail?: string | null;
  /** `{ reference, initiatedAt, settledAt?, status, reason? }` once money goes back to the source. */
  @Property({ type: 'json', nullable: true }) refund?: RefundState | null;
  @Property({ type: 'datetime', nullable: true }) receiptDeliveryConfirmedAt?: Date | null;
  // Incoming UMA payments: what the platform said when it approved (receiverCustomerInfo) or rejected (its reason).
  @Property({ type: 'json', nullable: true }) receiverCustomerInfo?: Record<string, unknown> | null;
  @Property({ type: 'string', nullable: true }) rejectionReason?: string | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

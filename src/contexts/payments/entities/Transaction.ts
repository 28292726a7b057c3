import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

import type { TransactionStatus, TransactionType } from '../domain/transaction-state';

export type { TransactionStatus, TransactionType };

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
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

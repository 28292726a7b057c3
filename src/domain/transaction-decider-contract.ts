import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';

/** The transaction a platform decides with POST /transactions/{id}/approve or /reject, as plain data. */
export interface PendingTransaction {
  id: string;
  platformId: string;
  type: 'INCOMING' | 'OUTGOING';
  status: string;
  quoteId: string | null;
  agentId: string | null;
}

export interface TransactionDecisionContext {
  em: EntityManager;
  temporal: Client;
  taskQueue?: string;
  transaction: PendingTransaction;
  /** The request's key (Idempotency-Key, or one made for it): a retried decision is the same decision. */
  decisionKey: string;
}

/**
 * One kind of transaction that waits for its platform's decision (an incoming payment the
 * platform's webhook answered 202, a payment an agent's action holds for approval). The payments
 * context owns POST /transactions/{id}/approve and /reject and asks each registered decider in
 * turn (src/contexts/transaction-deciders.ts); the first that `waitsFor` the transaction decides
 * it. None: 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL. The route answers the transaction as
 * the decision left it.
 */
export interface TransactionDecider {
  /** Stable, for logs and tests. */
  readonly name: string;
  waitsFor(em: EntityManager, transaction: PendingTransaction): Promise<boolean>;
  approve(context: TransactionDecisionContext, body: { receiverCustomerInfo?: Record<string, unknown> }): Promise<void>;
  reject(context: TransactionDecisionContext, body: { reason?: string }): Promise<void>;
}

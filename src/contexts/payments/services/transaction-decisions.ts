import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import type { PendingTransaction, TransactionDecider } from '../../../domain/transaction-decider-contract';
import { Transaction } from '../entities';
import { answerHold, type ExecutionDeps } from './quote-execute';

export type PlatformDecisionRequest =
  { decision: 'approve'; body: { receiverCustomerInfo?: Record<string, unknown> } } | { decision: 'reject'; body: { reason?: string } };

/**
 * A platform's decision on one of its pending transactions (POST /transactions/{id}/approve or
 * /reject): the first registered decider that waits for the transaction carries it out. Another
 * platform's or an unknown transaction is 404; one no decider waits for, 409
 * TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL. Returns the transaction's id once decided.
 */
export async function decidePendingTransaction(
  deps: { em: EntityManager; temporal: Client; taskQueue?: string; deciders: readonly TransactionDecider[] },
  platformId: string,
  transactionId: string,
  request: PlatformDecisionRequest,
  requestKey: string | undefined,
): Promise<string> {
  const tx = await deps.em.findOne(Transaction, { id: transactionId, platformId });
  if (!tx) throw DomainError.notFound('Transaction');
  const transaction: PendingTransaction = {
    id: tx.id,
    platformId: tx.platformId,
    type: tx.type,
    status: tx.status,
    quoteId: tx.quoteId ?? null,
    agentId: tx.agentId ?? null,
  };
  for (const decider of deps.deciders) {
    if (!(await decider.waitsFor(deps.em, transaction))) continue;
    // Without an Idempotency-Key the request is a decision of its own.
    const context = {
      em: deps.em,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      transaction,
      decisionKey: requestKey ? `${request.decision}:${requestKey}` : newId('Request'),
    };
    if (request.decision === 'approve') await decider.approve(context, request.body);
    else await decider.reject(context, request.body);
    return tx.id;
  }
  throw new DomainError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', 'The transaction is not waiting for the platform to approve or reject it');
}

/** What a platform's decision needs of the service: the engine, the registered deciders, and what answering a gate's hold needs. */
export interface DecisionDeps extends ExecutionDeps {
  transactionDeciders?: readonly TransactionDecider[];
}

/**
 * POST /transactions/{id}/approve|reject: the platform's decision (decidePendingTransaction). An
 * approved payment a later gate holds for its customer's SCA proof gets the customer's challenge
 * now (answerHold). Returns the transaction's id.
 */
export async function decideTransactionForPlatform(
  em: EntityManager,
  deps: DecisionDeps,
  platformId: string,
  transactionId: string,
  request: PlatformDecisionRequest,
  requestKey: string | undefined,
): Promise<string> {
  const id = await decidePendingTransaction(
    { em, temporal: deps.temporal, taskQueue: deps.taskQueue, deciders: deps.transactionDeciders ?? [] },
    platformId,
    transactionId,
    request,
    requestKey,
  );
  if (request.decision === 'approve') {
    const quoteId = (await em.fork().findOneOrFail(Transaction, { id })).quoteId;
    if (quoteId) await answerHold(em, deps, quoteId);
  }
  return id;
}

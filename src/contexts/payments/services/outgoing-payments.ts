import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Quote, Transaction, type RefundState } from '../entities';
import {
  InternalAccount,
  JournalEntry,
  LedgerAccount,
  refundSettled,
  releaseHold,
  reverseCollectedCredit,
  settleHold,
  internalAccountView,
} from '../../ledger';
import { ExternalAccount } from '../../external-accounts';
import { WebhookEvent, recordWebhookEvents } from '../../webhooks';
import { Customer } from '../../customers';
import { readJoined } from '../../../db/joined-rows';
import { DomainError } from '../../../domain/errors';
import { derivedId } from '../../../domain/ids';
import type { FinishedPayment } from '../domain/payment-outcome';
import { networkOfRail, simulatedOnChainTransaction } from '../domain/on-chain-transactions';
import { refundBegun, refundInOneStep } from '../domain/refunds';
import { transactionViews } from './transaction-views';

export type RecordedEvent = { eventId: string; type: string };

/** What a payment step did: the events to deliver and, when this very call ended the payment, how. */
export interface StepResult {
  events: RecordedEvent[];
  finished?: FinishedPayment;
}

/**
 * The webhook type announcing a payment's status: OUTGOING_PAYMENT.* for money leaving, and
 * INCOMING_PAYMENT.* for money pulled into an internal account (which has no PROCESSING event).
 */
function paymentEventType(tx: Transaction, status: string): string | null {
  if (tx.type === 'OUTGOING') return `OUTGOING_PAYMENT.${status}`;
  return status === 'PROCESSING' || status === 'EXPIRED' ? null : `INCOMING_PAYMENT.${status}`;
}

/**
 * Records the webhook events of a transaction's current state: the payment's status (or its
 * refund's) with the transaction as data, and a balance update for each internal account whose
 * balance moved. Ids derive from the transaction and the event type, so a retried step records
 * each once.
 */
export async function recordEvents(
  em: EntityManager,
  quote: Quote,
  tx: Transaction,
  statuses: string[],
  options: { balanceOf?: (string | undefined)[] } = {},
): Promise<RecordedEvent[]> {
  const data = (await transactionViews(em, [tx]))[0];
  const { payment, balances } = eventIdsOf(tx, statuses, options.balanceOf);
  const base = { platformId: tx.platformId, environment: quote.environment };
  const toRecord: { platformId: string; environment: Quote['environment']; id: string; type: string; data: unknown }[] = payment.map(({ eventId, type }) => ({
    ...base,
    id: eventId,
    type,
    data: type.endsWith('.REFUND_PENDING') ? refundBegun(data) : type === OUTGOING_PENDING ? { ...data, status: 'PENDING' } : data,
  }));
  for (const { eventId, accountId } of balances) {
    // Found in this unit of work when the step read the account and posted to it (postEntry leaves
    // the ledger accounts it wrote there); read otherwise.
    const account = await em.findOne(InternalAccount, { id: accountId });
    const ledger = await em.findOne(LedgerAccount, { id: accountId });
    if (!account || !ledger) continue;
    toRecord.push({ ...base, id: eventId, type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED', data: internalAccountView(account, ledger) });
  }
  return (await recordWebhookEvents(em, toRecord)).map(({ id, type }) => ({ eventId: id, type }));
}

/**
 * Announced with the step that ends it (the execution, or a hold for authorization), first: the
 * transaction as it was before that step. Not part of the ids of a step's balance events.
 */
const OUTGOING_PENDING = 'OUTGOING_PAYMENT.PENDING';

/** The ids the events of a step get: derived from the transaction, the step's event types and the accounts. */
function eventIdsOf(tx: Transaction, statuses: string[], balanceOf: (string | undefined)[] = []) {
  const types = statuses.map((status) => paymentEventType(tx, status)).filter((type): type is string => type !== null);
  const [payer, ...others] = balanceOf;
  // The payer's id keeps the derivation it always had (REFUND_PENDING and PENDING, announced since, are not part
  // of it, so a step recorded before and repeated now finds its balance event); other accounts add their own id.
  const key = types.filter((type) => !type.endsWith('.REFUND_PENDING') && type !== OUTGOING_PENDING).join('+') || statuses.join('+');
  const accounts = [...new Set([payer, ...others])].filter((id): id is string => !!id);
  return {
    payment: types.map((type) => ({ eventId: derivedId('Webhook', tx.id, type), type })),
    balances: accounts.map((accountId) => ({
      accountId,
      eventId:
        accountId === payer
          ? derivedId('Webhook', tx.id, key, 'INTERNAL_ACCOUNT.BALANCE_UPDATED')
          : derivedId('Webhook', tx.id, key, 'INTERNAL_ACCOUNT.BALANCE_UPDATED', accountId),
    })),
  };
}

/**
 * The events a step recorded when it ran before: a step repeated after its commit (its worker
 * died before reporting, or the workflow task that ran it was lost) answers with them again,
 * so that the workflow still delivers them. Nothing is recorded here.
 */
export async function eventsRecordedBefore(
  em: EntityManager,
  tx: Transaction,
  ...steps: { statuses: string[]; balanceOf?: (string | undefined)[] }[]
): Promise<RecordedEvent[]> {
  const candidates = steps.flatMap(({ statuses, balanceOf }) => {
    const ids = eventIdsOf(tx, statuses, balanceOf);
    return [...ids.payment.map((e) => e.eventId), ...ids.balances.map((e) => e.eventId)];
  });
  const found = await em.find(WebhookEvent, { id: { $in: [...new Set(candidates)] } }, { fields: ['id', 'type'] });
  const byId = new Map(found.map((e) => [e.id, e.type]));
  return [...new Set(candidates)].filter((id) => byId.has(id)).map((eventId) => ({ eventId, type: byId.get(eventId)! }));
}

/** The payer's internal account; none when the money comes from outside (real-time funding, a pull). */
export const sourceAccountOf = (quote: Quote): string | undefined =>
  quote.source.sourceType === 'ACCOUNT' && String(quote.source.accountId).startsWith('InternalAccount:') ? String(quote.source.accountId) : undefined;
/** The external account the service pulls from, for a pull-funded quote. */
export const pullSourceIdOf = (quote: Quote): string | undefined =>
  quote.source.sourceType === 'ACCOUNT' && String(quote.source.accountId).startsWith('ExternalAccount:') ? String(quote.source.accountId) : undefined;
/** The internal account a payment credits, when it pays into one (an internal or UMA destination). */
export const creditedAccountOf = (quote: Quote): string | undefined =>
  typeof quote.destination.accountId === 'string' && quote.destination.accountId.startsWith('InternalAccount:') ? quote.destination.accountId : undefined;

export async function destinationAccount(em: EntityManager, quote: Quote): Promise<ExternalAccount | null> {
  const id = quote.destination.accountId;
  if (typeof id !== 'string' || !id.startsWith('ExternalAccount:')) return null;
  // Deleted accounts are read too: a payment keeps the account it was quoted to.
  return em.findOne(ExternalAccount, { id, platformId: quote.platformId });
}

/**
 * A payment step's rows in ONE statement: the transaction and its quote, locked, and what the
 * step's webhooks show (the customer, the payer's and the credited internal accounts), all left
 * in the unit of work so that nothing is read again.
 */
async function locked(em: EntityManager, transactionId: string) {
  const rows = await readJoined(
    em,
    { t: Transaction, q: Quote, c: Customer, src: InternalAccount, dst: InternalAccount },
    `from transactions t join quotes q on q.transaction_id = t.id
       left join customers c on c.id = t.customer_id
       left join internal_accounts src on src.id = q.source->>'accountId'
       left join internal_accounts dst on dst.id = q.destination->>'accountId'
     where t.id = ? for update of t, q`,
    [transactionId],
  );
  if (!rows) throw new Error(`payment ${transactionId} not found`);
  return { payment: rows.t!, quote: rows.q! };
}

function holdOf(quote: Quote, transactionId: string) {
  return { platformId: quote.platformId, transactionId, accountId: sourceAccountOf(quote), currency: quote.sendingCurrency, amount: quote.totalSendingAmount };
}

/**
 * The payment and its quote reach an end state, written in ONE statement (a flush would send an
 * update per table) with the payment's refund, if any; both entities are left as written.
 */
async function finish(em: EntityManager, payment: Transaction, quote: Quote, status: 'COMPLETED' | 'FAILED', failureReason?: string | null): Promise<void> {
  const now = new Date();
  payment.status = status;
  payment.failureReason = failureReason ?? null;
  if (status === 'COMPLETED') {
    payment.settledAt = now;
    // A payout to a wallet settled on its chain: its hash is known from now on (the rail is the wallet's type).
    const network = networkOfRail(payment.paymentRail);
    if (network && payment.type === 'OUTGOING')
      payment.destination = { ...payment.destination, onChainTransaction: simulatedOnChainTransaction(network, payment.id, 'destination') };
  }
  payment.updatedAt = now;
  quote.status = status;
  quote.updatedAt = now;
  await em.getConnection().execute(
    `with quote as (update quotes set status = ?, updated_at = ? where id = ?)
     update transactions set status = ?, failure_reason = ?, settled_at = ?, refund = ?, destination = ?, updated_at = ? where id = ?`,
    [
      quote.status,
      now,
      quote.id,
      payment.status,
      payment.failureReason,
      payment.settledAt ?? null,
      payment.refund ? JSON.stringify(payment.refund) : null,
      JSON.stringify(payment.destination),
      now,
      payment.id,
    ],
    'run',
    em.getTransactionContext(),
  );
  const uow = em.getUnitOfWork();
  uow.merge(payment);
  uow.merge(quote);
}

/** The rail delivered: the hold leaves (fees to their accounts), the payment is COMPLETED. */
export async function completeOutgoingPayment(em: EntityManager, input: { transactionId: string }): Promise<StepResult> {
  return em.transactional(async (tx) => {
    const { payment, quote } = await locked(tx, input.transactionId);
    const credited = creditedAccountOf(quote);
    if (payment.status !== 'PROCESSING')
      return { events: await eventsRecordedBefore(tx, payment, { statuses: ['COMPLETED'], balanceOf: [sourceAccountOf(quote), credited] }) };
    await settleHold(tx, {
      ...holdOf(quote, payment.id),
      serviceFees: quote.feesIncluded - quote.platformFeesIncluded,
      platformFees: quote.platformFeesIncluded,
      delivery: { receivingCurrency: quote.receivingCurrency, receivedAmount: quote.totalReceivingAmount, ...(credited ? { toAccountId: credited } : {}) },
    });
    await finish(tx, payment, quote, 'COMPLETED');
    return {
      events: await recordEvents(tx, quote, payment, ['COMPLETED'], { balanceOf: [sourceAccountOf(quote), credited] }),
      finished: { type: payment.type, outcome: 'COMPLETED' },
    };
  });
}

export type FailureKind =
  | 'EXECUTION_FAILED'
  | 'DELIVERY_FAILED'
  | 'USER_CANCELLED'
  | 'PAYOUT_AND_REFUND_FAILED'
  | 'CANCELLED_WHILE_PROCESSING'
  | 'CANCELLED_BY_PLATFORM'
  | 'PULL_FAILED';

const FAILURES: Record<FailureKind, { failureReason: string | null; refund: 'COMPLETED' | 'FAILED'; refundReason: RefundState['reason'] }> = {
  // The platform cancelled it (POST …/cancel) before the bank settled it: no failure of the rail.
  CANCELLED_BY_PLATFORM: { failureReason: null, refund: 'COMPLETED', refundReason: 'USER_CANCELLATION' },
  EXECUTION_FAILED: { failureReason: 'QUOTE_EXECUTION_FAILED', refund: 'COMPLETED', refundReason: 'TRANSACTION_FAILED' },
  DELIVERY_FAILED: { failureReason: 'COUNTERPARTY_POST_TX_FAILED', refund: 'COMPLETED', refundReason: 'TRANSACTION_FAILED' },
  USER_CANCELLED: { failureReason: 'COUNTERPARTY_POST_TX_FAILED', refund: 'COMPLETED', refundReason: 'USER_CANCELLATION' },
  PAYOUT_AND_REFUND_FAILED: { failureReason: 'COUNTERPARTY_POST_TX_FAILED', refund: 'FAILED', refundReason: 'TRANSACTION_FAILED' },
  CANCELLED_WHILE_PROCESSING: { failureReason: 'COUNTERPARTY_POST_TX_FAILED', refund: 'COMPLETED', refundReason: 'USER_CANCELLATION' },
  // The bank refused the pull: no money arrived, so nothing is refunded (see failOutgoingPayment).
  PULL_FAILED: { failureReason: 'QUOTE_EXECUTION_FAILED', refund: 'COMPLETED', refundReason: 'TRANSACTION_FAILED' },
};

/** Why a payment failed as its type's reference enum says it: a pull into an account is an incoming collection. */
function failureReasonOf(payment: Transaction, kind: FailureKind): string | null {
  if (payment.type === 'INCOMING') return kind === 'CANCELLED_BY_PLATFORM' ? null : 'COLLECTION_FAILED';
  return FAILURES[kind].failureReason;
}

/** Whether the payment's money is in PENDING_OUTGOING: always after a hold or a funding, only once collected for a pull. */
async function isFunded(em: EntityManager, quote: Quote, transactionId: string): Promise<boolean> {
  if (!pullSourceIdOf(quote)) return true;
  return (await em.count(JournalEntry, { idempotencyKey: `funding:${transactionId}` })) > 0;
}

/**
 * The payout failed before it left: the payment is FAILED and the hold goes back to the payer
 * (refund COMPLETED), or — when the refund itself fails (sandbox 007) — the money has left and
 * stays with the rail, the refund FAILED (an operator case). A pull the bank refused, or one
 * cancelled while pending, moved no money: FAILED, with nothing to refund.
 */
export async function failOutgoingPayment(em: EntityManager, input: { transactionId: string; kind: FailureKind }): Promise<StepResult> {
  return em.transactional(async (tx) => {
    const { payment, quote } = await locked(tx, input.transactionId);
    const failure = FAILURES[input.kind];
    if (payment.status !== 'PROCESSING') {
      return {
        events: await eventsRecordedBefore(
          tx,
          payment,
          { statuses: ['FAILED'] },
          { statuses: ['FAILED', 'REFUND_PENDING', `REFUND_${failure.refund}`], balanceOf: [sourceAccountOf(quote)] },
        ),
      };
    }
    const finished: FinishedPayment = { type: payment.type, outcome: 'FAILED' };
    if (!(await isFunded(tx, quote, payment.id))) {
      await finish(tx, payment, quote, 'FAILED', failureReasonOf(payment, input.kind));
      return { events: await recordEvents(tx, quote, payment, ['FAILED']), finished };
    }
    const hold = holdOf(quote, payment.id);
    if (failure.refund === 'COMPLETED') await releaseHold(tx, hold);
    else
      await settleHold(tx, {
        ...hold,
        serviceFees: 0n,
        platformFees: 0n,
        delivery: { receivingCurrency: quote.receivingCurrency, receivedAmount: quote.totalReceivingAmount },
      });
    payment.refund = refundInOneStep(payment.id, failure.refund, failure.refundReason, new Date());
    await finish(tx, payment, quote, 'FAILED', failureReasonOf(payment, input.kind));
    return {
      events: await recordEvents(tx, quote, payment, ['FAILED', 'REFUND_PENDING', `REFUND_${failure.refund}`], { balanceOf: [sourceAccountOf(quote)] }),
      finished,
    };
  });
}

/** A settled payout came back (sandbox 005): the whole amount is refunded, FAILED with PAYOUT_RETURNED. */
export async function returnOutgoingPayment(em: EntityManager, input: { transactionId: string }): Promise<StepResult> {
  return em.transactional(async (tx) => {
    const { payment, quote } = await locked(tx, input.transactionId);
    if (payment.status !== 'COMPLETED')
      return {
        events: await eventsRecordedBefore(tx, payment, { statuses: ['FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED'], balanceOf: [sourceAccountOf(quote)] }),
      };
    await refundSettled(tx, {
      ...holdOf(quote, payment.id),
      serviceFees: quote.feesIncluded - quote.platformFeesIncluded,
      platformFees: quote.platformFeesIncluded,
    });
    payment.refund = refundInOneStep(payment.id, 'COMPLETED', 'TRANSACTION_FAILED', new Date());
    await finish(tx, payment, quote, 'FAILED', 'PAYOUT_RETURNED');
    return {
      events: await recordEvents(tx, quote, payment, ['FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED'], { balanceOf: [sourceAccountOf(quote)] }),
      finished: { type: payment.type, outcome: 'RETURNED' },
    };
  });
}

/**
 * The originating bank returned a completed pull (sandbox source 009): the credit is taken back
 * from the account it went to and the whole amount goes back to the bank, fees included; the
 * payment is FAILED. What the account no longer holds is charged to the platform's return
 * shortfall (the customer's balance never goes below zero).
 */
export async function returnPulledPayment(em: EntityManager, input: { transactionId: string }): Promise<StepResult> {
  return em.transactional(async (tx) => {
    const { payment, quote } = await locked(tx, input.transactionId);
    const credited = creditedAccountOf(quote);
    if (!credited) return { events: [] };
    if (payment.status !== 'COMPLETED') return { events: await eventsRecordedBefore(tx, payment, { statuses: ['FAILED'], balanceOf: [credited] }) };
    await reverseCollectedCredit(tx, {
      ...holdOf(quote, payment.id),
      serviceFees: quote.feesIncluded - quote.platformFeesIncluded,
      platformFees: quote.platformFeesIncluded,
      delivery: { receivingCurrency: quote.receivingCurrency, receivedAmount: quote.totalReceivingAmount, toAccountId: credited },
    });
    await finish(tx, payment, quote, 'FAILED', payment.type === 'INCOMING' ? 'COLLECTION_FAILED' : 'QUOTE_EXECUTION_FAILED');
    return { events: await recordEvents(tx, quote, payment, ['FAILED'], { balanceOf: [credited] }), finished: { type: payment.type, outcome: 'RETURNED' } };
  });
}

/**
 * What the quote's expiry found. `executedAlready`: the quote was executed and its payment runs, though the
 * workflow asking never saw the execution. An execution step runs inside the workflow task that answers the
 * execute update; when that task is lost before the server records it (the server restarted, a write of it
 * failed), the update is lost with it, while the step's commit stands. The workflow then carries the payment
 * on from the recorded execution (the request key it recorded) instead of ending as expired.
 */
export interface QuoteExpiry {
  events: RecordedEvent[];
  executedAlready?: { requestKey?: string };
}

/**
 * A quote nobody executed in time: it and its transaction are EXPIRED (nothing was held). A quote
 * withdrawn after its request's refusal (executeQuoteCreatedForRequest) is gone: nothing to expire or announce.
 */
export async function expireQuote(em: EntityManager, input: { quoteId: string }): Promise<QuoteExpiry> {
  return em.transactional(async (tx) => {
    const quote = await tx.findOne(Quote, { id: input.quoteId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!quote) return { events: [] };
    const payment = await tx.findOneOrFail(Transaction, { id: quote.transactionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (quote.executedAt && payment.status === 'PROCESSING')
      return { events: [], executedAlready: quote.executionKey ? { requestKey: quote.executionKey } : {} };
    // A real-time quote still waiting for its SCA authorization expires as an unpaid one does.
    if ((quote.status !== 'PENDING' && quote.status !== 'PENDING_AUTHORIZATION') || quote.executedAt)
      return { events: quote.status === 'EXPIRED' ? await eventsRecordedBefore(tx, payment, { statuses: ['EXPIRED'] }) : [] };
    const now = new Date();
    quote.status = 'EXPIRED';
    quote.updatedAt = now;
    payment.status = 'EXPIRED';
    payment.failureReason = 'QUOTE_EXPIRED';
    payment.updatedAt = now;
    await tx.flush();
    return { events: await recordEvents(tx, quote, payment, ['EXPIRED']) };
  });
}

/** The receipt was delivered to the customer (POST …/confirm); repeating it moves the time. */
export async function confirmReceiptDelivery(em: EntityManager, input: { platformId: string; transactionId: string; at?: Date }): Promise<Transaction> {
  const payment = await em.findOne(Transaction, { id: input.transactionId, platformId: input.platformId });
  if (!payment) throw DomainError.notFound('Transaction');
  payment.receiptDeliveryConfirmedAt = input.at ?? new Date();
  payment.updatedAt = new Date();
  await em.flush();
  return payment;
}

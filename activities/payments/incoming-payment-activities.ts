import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { InternalAccount, LedgerAccount } from '../../src/contexts/ledger/entities';
import { Transaction } from '../../src/contexts/payments/entities';
import { DomainError, isErrorCode } from '../../src/domain/errors';
import { assertCustomerMayMoveMoney } from '../../src/contexts/customers/services/money-movement-policy';
import { derivedId } from '../../src/domain/ids';
import { transfer } from '../../src/contexts/ledger/domain/ledger';
import { parseMinor } from '../../src/domain/money';
import { assertTransition, incomingPaymentEventType, type TransactionStatus } from '../../src/contexts/payments/domain/transaction-state';
import type { FinishedPayment } from '../../src/contexts/payments/domain/payment-outcome';
import { postEntry, sandboxFundingAccountId } from '../../src/contexts/ledger/services/ledger';
import { internalAccountView } from '../../src/contexts/ledger/services/internal-account-views';
import { transactionViews } from '../../src/contexts/payments/services/transaction-views';
import { closeUnsentEvent, recordWebhookEvent } from '../../src/contexts/webhooks/services/webhooks';
import type { IncomingPaymentInput, PostedPayment } from '../../workflows/payments/definitions';
import {
  approvedIncomingOutcome,
  refusedStatusOf,
  type ApprovedIncomingOutcome,
  type IncomingPaymentDecision,
} from '../../src/contexts/payments/domain/incoming-approval';
import { refundBegun, refundInOneStep } from '../../src/contexts/payments/domain/refunds';
import type { ActivityDeps } from '../deps';
import { countFinishedPayment } from '../metrics';

export function incomingPaymentActivities({ orm, metrics }: ActivityDeps) {
  return {
    /**
     * The whole posting of an incoming payment in ONE database transaction (a local activity of
     * the payment workflow): the PENDING transaction, the policy check, the ledger entry and the
     * COMPLETED status (or FAILED with the refusal's code), and the webhook events announcing
     * it. Nothing can be half done, and a retry finds the finished work and repeats none of it.
     */
    async postIncomingPayment(input: IncomingPaymentInput): Promise<PostedPayment> {
      const { posted, finished } = await orm.em.fork().transactional(async (em) => {
        const tx = (await em.findOne(Transaction, { id: input.transactionId }, { lockMode: LockMode.PESSIMISTIC_WRITE })) ?? (await insertPending(em, input));
        const before = tx.status;
        const refusal = await settle(em, tx);
        const events = await recordPaymentEvents(em, tx, input.environment, { balanceUpdate: tx.status === 'COMPLETED' });
        const posted: PostedPayment = {
          transactionId: tx.id,
          status: tx.status,
          events,
          ...(refusal ? { refusal: { code: refusal.code, message: refusal.reason } } : {}),
        };
        return { posted, finished: endingOf(tx, before) };
      });
      countFinishedPayment(metrics, finished);
      return posted;
    },

    /**
     * The first step of a UMA payment the platform approves: the PENDING transaction and the
     * INCOMING_PAYMENT.PENDING event the approval call posts, in one database transaction. The
     * event carries the transaction and the receiver's information the sender asks for (none
     * from the sandbox's senders). A retry finds both recorded.
     */
    async recordIncomingPaymentPending(input: IncomingPaymentInput): Promise<{ eventId: string }> {
      return orm.em.fork().transactional(async (em) => {
        const tx = (await em.findOne(Transaction, { id: input.transactionId })) ?? (await insertPending(em, input));
        const type = 'INCOMING_PAYMENT.PENDING';
        const event = await recordWebhookEvent(em, {
          id: derivedId('Webhook', tx.id, type),
          platformId: tx.platformId,
          environment: input.environment,
          type,
          data: { ...(await transactionViews(em, [tx]))[0], requestedReceiverCustomerInfoFields: [] },
        });
        return { eventId: event.id };
      });
    },

    /**
     * Carries out the decision on a UMA payment, in one database transaction: approved, it is
     * posted as any incoming payment (the money-movement policy may still refuse it); rejected,
     * REJECTED with the platform's reason; failed (a 422, a webhook error, no decision in time),
     * FAILED with its reason. Nothing moves unless approved. The events announcing the outcome are
     * recorded with it. A retry finds the decision carried out and repeats none of it.
     */
    async concludeIncomingPayment(input: { payment: IncomingPaymentInput; decision: IncomingPaymentDecision }): Promise<PostedPayment> {
      const { decision } = input;
      const { posted, finished } = await orm.em.fork().transactional(async (em) => {
        const tx = await em.findOneOrFail(Transaction, { id: input.payment.transactionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        const before = tx.status;
        let refusal: DomainError | null = null;
        if (decision.decision === 'APPROVE') {
          if (tx.status === 'PENDING' && decision.receiverCustomerInfo) tx.receiverCustomerInfo = decision.receiverCustomerInfo;
          const outcome = approvedIncomingOutcome(input.payment.environment, tx.source?.umaAddress);
          if (outcome === 'CREDITED') refusal = await settle(em, tx);
          else await sendBack(em, tx, outcome);
        } else if (tx.status === 'PENDING') {
          const status = refusedStatusOf(decision);
          assertTransition(tx.status, status);
          tx.status = status;
          if (decision.decision === 'REJECT') tx.rejectionReason = decision.reason ?? null;
          else tx.failureReason = decision.failureReason;
          tx.updatedAt = new Date();
          await em.flush();
        }
        const events = [
          ...(await recordPaymentEvents(em, tx, input.payment.environment, { balanceUpdate: tx.status === 'COMPLETED' })),
          ...(await recordRefundEvents(em, tx, input.payment.environment)),
        ];
        // The approval call is never retried: its event, if the call never went out (the worker
        // stopped in between), is closed so that no sweeper delivers it late.
        await closeUnsentEvent(em, derivedId('Webhook', tx.id, 'INCOMING_PAYMENT.PENDING'));
        const posted: PostedPayment = {
          transactionId: tx.id,
          status: tx.status,
          events,
          ...(refusal ? { refusal: { code: refusal.code, message: refusal.reason } } : {}),
        };
        return { posted, finished: endingOf(tx, before) };
      });
      countFinishedPayment(metrics, finished);
      return posted;
    },

    // The three steps below are version 1 of the payment workflow, one activity each; runs
    // started before postIncomingPayment existed still call them, so they stay registered.

    /** Records the transaction as PENDING. Repeats (activity retries) find the existing row. */
    async createIncomingTransaction(input: IncomingPaymentInput): Promise<void> {
      const em = orm.em.fork();
      if (await em.findOne(Transaction, { id: input.transactionId })) return;
      await insertPending(em, input);
    },

    /** Credits the account and completes the transaction in one database transaction. */
    async settleIncomingPayment(input: { transactionId: string }): Promise<void> {
      const { refusal, finished } = await orm.em.fork().transactional(async (em) => {
        const tx = await em.findOneOrFail(Transaction, { id: input.transactionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        const before = tx.status;
        return { refusal: await settle(em, tx), finished: endingOf(tx, before) };
      });
      countFinishedPayment(metrics, finished);
      if (refusal) throw refusal;
    },

    /** Records the webhook events announcing the transaction's current status. */
    async recordIncomingPaymentEvents(input: { transactionId: string; environment: 'SANDBOX' | 'PRODUCTION' }): Promise<RecordedEvent[]> {
      const em = orm.em.fork();
      const tx = await em.findOneOrFail(Transaction, { id: input.transactionId });
      return recordPaymentEvents(em, tx, input.environment, { balanceUpdate: true });
    },
  };
}

type RecordedEvent = { eventId: string; type: string };

async function insertPending(em: EntityManager, input: IncomingPaymentInput): Promise<Transaction> {
  const account = await em.findOne(InternalAccount, { id: input.internalAccountId, platformId: input.platformId });
  if (!account) throw DomainError.notFound('Internal account', 'ACCOUNT_NOT_FOUND');
  const now = new Date();
  const tx = em.create(Transaction, {
    id: input.transactionId,
    platformId: input.platformId,
    customerId: input.customerId,
    type: 'INCOMING',
    direction: 'CREDIT',
    status: 'PENDING',
    source: input.source,
    destination: { destinationType: 'ACCOUNT', accountId: input.internalAccountId },
    receivedAmount: parseMinor(input.amount),
    receivedCurrency: input.currency,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return tx;
}

/**
 * Credits the account and completes the (locked) transaction: the balance, the journal and the
 * status change together. The money-movement policy is checked again here, with the customer
 * row locked, because it is this transaction that moves the money: a customer deleted or
 * suspended since the request was accepted gets nothing, and the transaction is FAILED with the
 * refusal's code as its reason (returned, so the caller's transaction still commits it).
 */
async function settle(em: EntityManager, tx: Transaction): Promise<DomainError | null> {
  if (tx.status === 'COMPLETED') return null;
  if (tx.status === 'FAILED') return new DomainError(isErrorCode(tx.failureReason) ? tx.failureReason : 'FORBIDDEN', 'The payment was refused');
  assertTransition(tx.status, 'COMPLETED');
  const refused = tx.customerId ? await policyRefusal(em, tx.platformId, tx.customerId) : null;
  const now = new Date();
  if (refused) {
    tx.status = 'FAILED';
    tx.failureReason = refused.code;
    tx.updatedAt = now;
    await em.flush();
    return refused;
  }
  const accountId = String(tx.destination.accountId);
  const source = sandboxFundingAccountId(tx.platformId, tx.receivedCurrency);
  await postEntry(em, {
    platformId: tx.platformId,
    idempotencyKey: `settle:${tx.id}`,
    transactionId: tx.id,
    description: 'Incoming payment credited',
    lines: transfer(source, accountId, tx.receivedCurrency, tx.receivedAmount),
    systemAccounts: [[source, 'SANDBOX_FUNDING_SOURCE']],
  });
  tx.status = 'COMPLETED';
  tx.settledAt = now;
  tx.updatedAt = now;
  await em.flush();
  return null;
}

/**
 * An approved payment the receiving side could not credit (the sandbox's 006 and 007 senders):
 * FAILED (OFFRAMP_FAILED) with nothing credited, and the money sent back to the sender, its
 * refund begun and ended in this step (COMPLETED, or FAILED for 007). A repeat finds it done.
 */
async function sendBack(em: EntityManager, tx: Transaction, outcome: Exclude<ApprovedIncomingOutcome, 'CREDITED'>): Promise<void> {
  if (tx.status !== 'PENDING') return;
  assertTransition(tx.status, 'FAILED');
  const now = new Date();
  tx.status = 'FAILED';
  tx.failureReason = 'OFFRAMP_FAILED';
  tx.refund = refundInOneStep(tx.id, outcome === 'REFUNDED' ? 'COMPLETED' : 'FAILED', 'TRANSACTION_FAILED', now);
  tx.updatedAt = now;
  await em.flush();
}

/**
 * The refund's events of a payment sent back: REFUND_PENDING (the refund begun, not settled),
 * then REFUND_COMPLETED or REFUND_FAILED, as the outgoing side announces its refunds. Ids derive
 * from the transaction and type, so a retry records nothing twice.
 */
async function recordRefundEvents(em: EntityManager, tx: Transaction, environment: 'SANDBOX' | 'PRODUCTION'): Promise<RecordedEvent[]> {
  if (!tx.refund) return [];
  const view = (await transactionViews(em, [tx]))[0]!;
  const steps: [string, unknown][] = [['INCOMING_PAYMENT.REFUND_PENDING', refundBegun(view)]];
  if (tx.refund.status !== 'PENDING') steps.push([`INCOMING_PAYMENT.REFUND_${tx.refund.status}`, view]);
  const events: RecordedEvent[] = [];
  for (const [type, data] of steps) {
    const event = await recordWebhookEvent(em, { id: derivedId('Webhook', tx.id, type), platformId: tx.platformId, environment, type, data });
    events.push({ eventId: event.id, type: event.type });
  }
  return events;
}

/** How the payment ended, when this settling ended it (a repeat finds it ended and reports nothing). */
function endingOf(tx: Transaction, before: TransactionStatus): FinishedPayment | undefined {
  if (tx.status === before || (tx.status !== 'COMPLETED' && tx.status !== 'FAILED' && tx.status !== 'REJECTED')) return undefined;
  // A rejection counts as a failed payment (metrics know COMPLETED, FAILED and RETURNED).
  return { type: tx.type, outcome: tx.status === 'COMPLETED' ? 'COMPLETED' : 'FAILED' };
}

/**
 * Records the webhook events announcing the transaction's current status: the payment event
 * and, when money moved, the account's balance update. Event ids derive from the transaction
 * and status, so a retry records nothing twice.
 */
async function recordPaymentEvents(
  em: EntityManager,
  tx: Transaction,
  environment: 'SANDBOX' | 'PRODUCTION',
  options: { balanceUpdate: boolean },
): Promise<RecordedEvent[]> {
  const type = incomingPaymentEventType(tx.status);
  if (!type) return [];
  const events = [
    await recordWebhookEvent(em, {
      id: derivedId('Webhook', tx.id, type),
      platformId: tx.platformId,
      environment,
      type,
      data: (await transactionViews(em, [tx]))[0],
    }),
  ];
  if (options.balanceUpdate) {
    const accountId = String(tx.destination.accountId);
    const account = await em.findOneOrFail(InternalAccount, { id: accountId });
    const ledger = await em.findOneOrFail(LedgerAccount, { id: accountId });
    events.push(
      await recordWebhookEvent(em, {
        id: derivedId('Webhook', tx.id, type, 'INTERNAL_ACCOUNT.BALANCE_UPDATED'),
        platformId: tx.platformId,
        environment,
        type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        data: internalAccountView(account, ledger),
      }),
    );
  }
  return events.map((e) => ({ eventId: e.id, type: e.type }));
}

/** The policy's refusal as a value, so the transaction can record it and still commit. */
async function policyRefusal(em: EntityManager, platformId: string, customerId: string): Promise<DomainError | null> {
  try {
    await assertCustomerMayMoveMoney(em, platformId, customerId, { lock: true });
    return null;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
}

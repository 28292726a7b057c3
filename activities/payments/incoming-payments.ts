import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer } from '../../src/contexts/customers/entities';
import { InternalAccount, LedgerAccount } from '../../src/contexts/ledger/entities';
import { Transaction } from '../../src/contexts/payments/entities';
import { DomainError, isErrorCode } from '../../src/domain/errors';
import { assertCustomerMayMoveMoney } from '../../src/contexts/customers/services/money-movement-policy';
import { derivedId } from '../../src/domain/ids';
import { transfer } from '../../src/contexts/ledger/domain/ledger';
import { parseMinor } from '../../src/domain/money';
import { assertTransition, incomingPaymentEventType } from '../../src/contexts/payments/domain/transaction-state';
import { ensureSystemAccount, postEntry, sandboxFundingAccountId } from '../../src/contexts/ledger/services/ledger';
import { internalAccountView } from '../../src/contexts/ledger/services/internal-account-views';
import { transactionView } from '../../src/contexts/payments/services/transaction-views';
import { recordWebhookEvent } from '../../src/contexts/webhooks/services/webhooks';
import type { IncomingPaymentInput } from '../../workflows/definitions';
import type { ActivityDeps } from '../deps';

export function incomingPaymentActivities({ orm }: ActivityDeps) {
  return {
    /** Records the transaction as PENDING. Repeats (activity retries) find the existing row. */
    async createIncomingTransaction(input: IncomingPaymentInput): Promise<void> {
      const em = orm.em.fork();
      if (await em.findOne(Transaction, { id: input.transactionId })) return;
      const account = await em.findOne(InternalAccount, { id: input.internalAccountId, platformId: input.platformId });
      if (!account) throw DomainError.notFound('Internal account', 'ACCOUNT_NOT_FOUND');
      const now = new Date();
      em.create(Transaction, {
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
    },

    /**
     * Credits the account and completes the transaction in one database transaction: the
     * balance, the journal and the status can never disagree. The money-movement policy is
     * checked again here, with the customer row locked, because it is this transaction that
     * moves the money: a customer deleted or suspended since the request was accepted gets
     * nothing, and the transaction is FAILED with the refusal's code as its reason.
     */
    async settleIncomingPayment(input: { transactionId: string }): Promise<void> {
      const refusal = await orm.em.fork().transactional(async (em): Promise<DomainError | null> => {
          const tx = await em.findOneOrFail(Transaction, { id: input.transactionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
          if (tx.status === 'COMPLETED') return null;
          if (tx.status === 'FAILED') return new DomainError(isErrorCode(tx.failureReason) ? tx.failureReason : 'FORBIDDEN', 'The payment was refused');
          assertTransition(tx.status, 'COMPLETED');
          const refused = tx.customerId ? await policyRefusal(em, tx.platformId, tx.customerId) : null;
          if (refused) {
            tx.status = 'FAILED';
            tx.failureReason = refused.code;
            tx.updatedAt = new Date();
            await em.flush();
            return refused;
          }
          const accountId = String(tx.destination.accountId);
          const source = sandboxFundingAccountId(tx.platformId, tx.receivedCurrency);
          await ensureSystemAccount(em, tx.platformId, source, 'SANDBOX_FUNDING_SOURCE', tx.receivedCurrency);
          await postEntry(em, {
            platformId: tx.platformId,
            idempotencyKey: `settle:${tx.id}`,
            transactionId: tx.id,
            description: 'Incoming payment credited',
            lines: transfer(source, accountId, tx.receivedCurrency, tx.receivedAmount),
          });
          const now = new Date();
          tx.status = 'COMPLETED';
          tx.settledAt = now;
          tx.updatedAt = now;
          await em.flush();
          return null;
      });
      if (refusal) throw refusal;
    },

    /**
     * Records the webhook events announcing the transaction's current status (the payment
     * event and the account's balance update) and returns their ids. Event ids derive from
     * the transaction and status, so a retried activity records nothing twice.
     */
    async recordIncomingPaymentEvents(input: { transactionId: string; environment: 'SANDBOX' | 'PRODUCTION' }): Promise<{ eventId: string; type: string }[]> {
      const em = orm.em.fork();
      const tx = await em.findOneOrFail(Transaction, { id: input.transactionId });
      const type = incomingPaymentEventType(tx.status);
      if (!type) return [];
      const customer = tx.customerId ? await em.findOne(Customer, { id: tx.customerId }) : null;
      const accountId = String(tx.destination.accountId);
      const account = await em.findOneOrFail(InternalAccount, { id: accountId });
      const ledger = await em.findOneOrFail(LedgerAccount, { id: accountId });
      const payment = await recordWebhookEvent(em, {
        id: derivedId('Webhook', tx.id, type),
        platformId: tx.platformId,
        environment: input.environment,
        type,
        data: transactionView(tx, customer?.platformCustomerId ?? null),
      });
      const balance = await recordWebhookEvent(em, {
        id: derivedId('Webhook', tx.id, type, 'INTERNAL_ACCOUNT.BALANCE_UPDATED'),
        platformId: tx.platformId,
        environment: input.environment,
        type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        data: internalAccountView(account, ledger),
      });
      return [payment, balance].map((e) => ({ eventId: e.id, type: e.type }));
    },
  };
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

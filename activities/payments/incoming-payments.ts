import { LockMode } from '@mikro-orm/core';
import { ApplicationFailure } from '@temporalio/activity';
import { InternalAccount, LedgerAccount } from '../../src/contexts/ledger/entities/index';
import { Transaction } from '../../src/contexts/payments/entities/index';
import { ApiError } from '../../src/domain/errors';
import { derivedId } from '../../src/domain/ids';
import { transfer } from '../../src/contexts/ledger/domain/ledger';
import { parseMinor } from '../../src/domain/money';
import { assertTransition, incomingPaymentEventType } from '../../src/contexts/payments/domain/transaction-state';
import { ensureSystemAccount, postEntry, sandboxFundingAccountId } from '../../src/contexts/ledger/services/ledger';
import { internalAccountView } from '../../src/contexts/ledger/services/internal-account-views';
import { transactionViews } from '../../src/contexts/payments/services/transaction-views';
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
      if (!account) throw ApplicationFailure.nonRetryable('internal account not found', 'ACCOUNT_NOT_FOUND');
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
     * balance, the journal and the status can never disagree.
     */
    async settleIncomingPayment(input: { transactionId: string }): Promise<void> {
      try {
        await orm.em.fork().transactional(async (em) => {
          const tx = await em.findOneOrFail(Transaction, { id: input.transactionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
          if (tx.status === 'COMPLETED') return;
          assertTransition(tx.status, 'COMPLETED');
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
        });
      } catch (err) {
        if (err instanceof ApiError) throw ApplicationFailure.nonRetryable(err.reason, err.code);
        throw err;
      }
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
      const accountId = String(tx.destination.accountId);
      const account = await em.findOneOrFail(InternalAccount, { id: accountId });
      const ledger = await em.findOneOrFail(LedgerAccount, { id: accountId });
      const payment = await recordWebhookEvent(em, {
        id: derivedId('Webhook', tx.id, type),
        platformId: tx.platformId,
        environment: input.environment,
        type,
        data: (await transactionViews(em, [tx]))[0],
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

import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import { createActivities } from '../../activities';
import { loopbackWebhookSender } from '../support/receiver';
import { Customer } from '../../src/contexts/customers/entities';
import { LedgerAccount } from '../../src/contexts/ledger/entities';
import { Transaction } from '../../src/contexts/payments/entities';
import { DomainError } from '../../src/domain/errors';
import { newId } from '../../src/domain/ids';
import { runIncomingPayment } from '../../src/contexts/payments/starters/incoming-payment';
import { Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

async function customerAccount() {
  const { api, platform } = await h.platform();
  const created = await api.post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `c-${Date.now()}-${Math.random()}`,
    fullName: 'Ada Lovelace',
  });
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(created.body.id)}&currency=USD`);
  return { api, platformId: platform.id, customerId: created.body.id as string, accountId: accounts.body.data[0].id as string };
}

const paymentInput = (o: { platformId: string; customerId: string | null; accountId: string }) => ({
  transactionId: newId('Transaction'),
  platformId: o.platformId,
  environment: 'SANDBOX' as const,
  customerId: o.customerId,
  internalAccountId: o.accountId,
  currency: 'USD',
  amount: '500',
  source: { sourceType: 'SANDBOX_FUNDING' as const },
});

describe('refusals raised inside the payment workflow reach the caller with their code', () => {
  test('an unknown account, refused by an activity, is ACCOUNT_NOT_FOUND (was a 500)', async () => {
    const { platformId } = await customerAccount();
    const input = paymentInput({ platformId, customerId: null, accountId: 'InternalAccount:00000000-0000-4000-8000-000000000000' });
    const err = await runIncomingPayment(h.temporal, input, { taskQueue: h.taskQueue }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'ACCOUNT_NOT_FOUND' });
  });

  test('the money-movement policy is enforced again inside the settling transaction: a customer deleted after the check gets nothing', async () => {
    const { platformId, customerId, accountId } = await customerAccount();
    // The API's check passed earlier; the customer is deleted before the money moves.
    await h.orm.em.fork().nativeUpdate(Customer, { id: customerId }, { isDeleted: true });
    const input = paymentInput({ platformId, customerId, accountId });
    const err = await runIncomingPayment(h.temporal, input, { taskQueue: h.taskQueue }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CUSTOMER_DELETED' });

    const em = h.orm.em.fork();
    expect(await em.findOneOrFail(Transaction, { id: input.transactionId })).toMatchObject({ status: 'FAILED', failureReason: 'CUSTOMER_DELETED' });
    expect((await em.findOneOrFail(LedgerAccount, { id: accountId })).balance).toBe(0n);
  });
});

describe('activities refuse without retrying', () => {
  test('resolving a verification that does not exist is a non-retryable VERIFICATION_NOT_FOUND (was retried forever)', async () => {
    const activities = createActivities({ orm: h.orm, masterKey: h.masterKey, webhookSender: loopbackWebhookSender });
    const err = await new MockActivityEnvironment()
      .run(activities.resolveVerification as (input: unknown) => Promise<unknown>, { verificationId: 'Verification:missing', environment: 'SANDBOX' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ type: 'VERIFICATION_NOT_FOUND', nonRetryable: true });
  });
});

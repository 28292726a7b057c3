import { webhookActivities } from '../../activities/webhooks/webhooks';
import { loopbackWebhookSender } from '../support/receiver';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { completeOutgoingPayment, expireQuote, failOutgoingPayment, returnOutgoingPayment } from '../../src/contexts/payments/services/outgoing-payments';
import { runExecutionStep } from '../../src/contexts/payments/services/quote-execution';
import { EXECUTION_GATES } from '../../src/contexts/execution-gates';
import { Quote } from '../../src/contexts/payments/entities';
import { LedgerAccount } from '../../src/contexts/ledger/entities';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';

/**
 * A payment step repeated after its commit — its worker killed before it reported, or the
 * workflow task that ran it lost with the Temporal server — answers with the events it recorded
 * the first time, so that the workflow still delivers them. Found by the crash campaign: a
 * failed payout's balance update was recorded and never delivered.
 */

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

async function payout(suffix: string, execute = true) {
  const { api } = await h.platform();
  const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `rep-${Math.random()}`, fullName: 'Jane Doe' });
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&currency=USD`);
  const usd = accounts.body.data[0].id as string;
  await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 100_000 });
  const bank = await api.post('/customers/external-accounts', { customerId: customer.body.id, ...eurAccount(ibanOf('DE', `370400440532013${suffix}`)) });
  const quote = (
    await api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    })
  ).body;
  if (execute) expect((await api.post(`/quotes/${quote.id}/execute`)).status).toBe(200);
  return {
    api,
    quoteId: quote.id as string,
    transactionId: quote.transactionId as string,
    accountId: usd,
    totalSendingAmount: BigInt(quote.totalSendingAmount),
  };
}

/** The events recorded for the transaction of these types, as a step reports them. */
async function recorded(transactionId: string, types: string[]) {
  const events = await h.orm.em.fork().find(WebhookEvent, { type: { $in: types } });
  return events
    .filter((e) => JSON.parse(e.payload).data.id === transactionId || (e.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && types.includes(e.type)))
    .map((e) => ({ eventId: e.id, type: e.type }));
}

const sorted = <T extends { eventId: string }>(events: T[]) => [...events].sort((a, b) => a.eventId.localeCompare(b.eventId));

describe('a payment step repeated after its commit reports the events it recorded', () => {
  test('failed payout (004): FAILED, REFUND_PENDING, REFUND_COMPLETED and the payer balance update', async () => {
    const { api, transactionId } = await payout('004');
    await eventually(
      () => api.get(`/transactions/${transactionId}`).then((r) => r.body),
      (t) => t.status === 'FAILED',
    );
    const again = await failOutgoingPayment(h.orm.em.fork(), { transactionId, kind: 'DELIVERY_FAILED' });
    expect(again.events.map((e) => e.type).sort()).toEqual([
      'INTERNAL_ACCOUNT.BALANCE_UPDATED',
      'OUTGOING_PAYMENT.FAILED',
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
      'OUTGOING_PAYMENT.REFUND_PENDING',
    ]);
    const byType = await recorded(transactionId, ['OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_PENDING', 'OUTGOING_PAYMENT.REFUND_COMPLETED']);
    expect(sorted(again.events.filter((e) => e.type !== 'INTERNAL_ACCOUNT.BALANCE_UPDATED'))).toEqual(sorted(byType));
    const balance = again.events.find((e) => e.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED')!;
    expect(await h.orm.em.fork().count(WebhookEvent, { id: balance.eventId })).toBe(1);
  });

  test('completed payout: COMPLETED and the payer balance update; a returned one (005): FAILED, REFUND_PENDING, REFUND_COMPLETED, balance', async () => {
    const { api, transactionId } = await payout('999');
    await eventually(
      () => api.get(`/transactions/${transactionId}`).then((r) => r.body),
      (t) => t.status === 'COMPLETED',
    );
    const completedAgain = await completeOutgoingPayment(h.orm.em.fork(), { transactionId });
    expect(completedAgain.events.map((e) => e.type).sort()).toEqual(['INTERNAL_ACCOUNT.BALANCE_UPDATED', 'OUTGOING_PAYMENT.COMPLETED']);

    const returned = await payout('005');
    await eventually(
      () => returned.api.get(`/transactions/${returned.transactionId}`).then((r) => r.body),
      (t) => t.status === 'COMPLETED',
    );
    const first = await returnOutgoingPayment(h.orm.em.fork(), { transactionId: returned.transactionId });
    const again = await returnOutgoingPayment(h.orm.em.fork(), { transactionId: returned.transactionId });
    expect(first.events.map((e) => e.type).sort()).toEqual([
      'INTERNAL_ACCOUNT.BALANCE_UPDATED',
      'OUTGOING_PAYMENT.FAILED',
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
      'OUTGOING_PAYMENT.REFUND_PENDING',
    ]);
    expect(sorted(again.events)).toEqual(sorted(first.events));
  });

  test('an expired quote: EXPIRED again; a step that never ran reports nothing', async () => {
    const { quoteId, transactionId } = await payout('999', false);
    await h.orm.em.fork().nativeUpdate(Quote, { id: quoteId }, { expiresAt: new Date(Date.now() - 1000) });
    const first = await expireQuote(h.orm.em.fork(), { quoteId });
    const again = await expireQuote(h.orm.em.fork(), { quoteId });
    expect(first.events.map((e) => e.type)).toEqual(['OUTGOING_PAYMENT.EXPIRED']);
    expect(again.events).toEqual(first.events);
    // Never completed: a repeated completion finds nothing to report (and moves nothing).
    expect((await completeOutgoingPayment(h.orm.em.fork(), { transactionId })).events).toEqual([]);
  });
});

describe('an execution step that runs twice', () => {
  const balance = async (id: string) => (await h.orm.em.fork().findOneOrFail(LedgerAccount, { id })).balance;

  test("run again for the same request (its commit outlived its report) it is the request's own execution: not a repeat, the funds held once", async () => {
    const { quoteId, transactionId, accountId, totalSendingAmount } = await payout('999', false);
    const before = await balance(accountId);
    const first = await runExecutionStep(h.orm.em.fork(), { quoteId, requestKey: 'pay-own' }, EXECUTION_GATES);
    const second = await runExecutionStep(h.orm.em.fork(), { quoteId, requestKey: 'pay-own' }, EXECUTION_GATES);
    expect(first).toMatchObject({ alreadyExecuted: false, repeat: false, ended: false, transactionId });
    expect(second).toMatchObject({ alreadyExecuted: true, repeat: false, ended: false, transactionId });
    // The same events, so that the payment still announces them if the first report was lost.
    expect('events' in second && second.events).toEqual('events' in first && first.events);
    expect((await h.orm.em.fork().findOneOrFail(Quote, { id: quoteId })).executionKey).toBe('pay-own');
    expect(await balance(accountId)).toBe(before - totalSendingAmount);
  });

  test('run for another request it is a repeat (409 at the route), and nothing moves again', async () => {
    const { quoteId, transactionId, accountId } = await payout('999', false);
    await runExecutionStep(h.orm.em.fork(), { quoteId, requestKey: 'pay-first' }, EXECUTION_GATES);
    const held = await balance(accountId);
    const other = await runExecutionStep(h.orm.em.fork(), { quoteId, requestKey: 'pay-other' }, EXECUTION_GATES);
    expect(other).toMatchObject({ alreadyExecuted: true, repeat: true, transactionId });
    expect(await balance(accountId)).toBe(held);
  });

  test('run after the payment ended it has nothing left to run or announce', async () => {
    const { quoteId, transactionId } = await payout('999', false);
    await runExecutionStep(h.orm.em.fork(), { quoteId, requestKey: 'pay-first' }, EXECUTION_GATES);
    await completeOutgoingPayment(h.orm.em.fork(), { transactionId });
    const later = await runExecutionStep(h.orm.em.fork(), { quoteId, requestKey: 'pay-first' }, EXECUTION_GATES);
    expect(later).toMatchObject({ alreadyExecuted: true, repeat: false, ended: true, events: [] });
  });
});

describe('the first webhook attempts of a step that runs again', () => {
  test('events the first run delivered are not posted again; the outcome says so', async () => {
    const { api, transactionId } = await payout('999');
    await eventually(
      () => api.get(`/transactions/${transactionId}`).then((r) => r.body),
      (t) => t.status === 'COMPLETED',
    );
    const completed = await completeOutgoingPayment(h.orm.em.fork(), { transactionId });
    const eventIds = completed.events.map((e) => e.eventId);
    const postsOf = () => h.receiver.received.filter((w) => eventIds.includes(w.body.id)).length;
    await eventually(
      async () => postsOf(),
      (n) => n === eventIds.length,
    );
    // Received is not yet recorded: the first delivery marks its events after the receiver answered.
    await eventually(
      async () => (await h.orm.em.fork().find(WebhookEvent, { id: { $in: eventIds } })).map((e) => e.state),
      (states) => states.length === eventIds.length && states.every((state) => state === 'DELIVERED'),
    );

    const { deliverWebhooks } = webhookActivities({ orm: h.orm, masterKey: h.masterKey, webhookSender: loopbackWebhookSender });
    const outcomes = await deliverWebhooks({ eventIds });
    expect(outcomes.map((o) => o.outcome)).toEqual(eventIds.map(() => expect.objectContaining({ kind: 'DELIVERED', alreadyDelivered: true })));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(postsOf()).toBe(eventIds.length);
    const attempts = (await h.orm.em.fork().find(WebhookEvent, { id: { $in: eventIds } })).map((e) => e.attempts);
    expect(attempts).toEqual(eventIds.map(() => 1));
  });
});

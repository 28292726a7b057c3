import { createActivities } from '../../activities';
import { completeOutgoingPayment } from '../../src/contexts/payments/services/outgoing-payments';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';
import { loopbackWebhookSender } from '../support/receiver';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

/** Statements the test ORM sent so far (API and worker share it here). */
const statements = async () => (await h.dbMetrics.statements.get()).values.reduce((s, v) => s + v.value, 0);

/** The counter once nothing has moved it for a while: the worker records webhook attempts after the receiver got them. */
async function settled(): Promise<number> {
  let last = await statements();
  for (;;) {
    await new Promise((r) => setTimeout(r, 400));
    const now = await statements();
    if (now === last) return now;
    last = now;
  }
}

/** A funded customer's USD account and a EUR bank account whose IBAN ends in `suffix` (the sandbox rail's scenario). */
async function payer(api: Api, suffix: string) {
  const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `sql-${Math.random()}`, fullName: 'Jane Doe' });
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&currency=USD`);
  const usd = accounts.body.data[0].id as string;
  expect((await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 100_000 })).status).toBe(200);
  const bank = await api.post('/customers/external-accounts', { customerId: customer.body.id, ...eurAccount(ibanOf('DE', `370400440532013${suffix}`)) });
  expect(bank.status).toBe(201);
  return { usd, bank: bank.body.id as string };
}

const quoteBody = (source: string, destination: string) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 1_000,
});

/**
 * The payout's SQL budget: from its quote request to its COMPLETED webhook at most 20 statements,
 * API and worker together (19 today: creation 3, execution 8 — 3 in the API, 5 in the worker:
 * one read of everything it needs, locked, the hold, one write of both statuses, the events —
 * completion 5, first webhook attempts 3). Each phase has its own budget too.
 */
describe('the SQL a payout costs', () => {
  test('quote creation: the request names its rows, read in one statement; the quote and its transaction written in one (≤ 3 with authentication)', async () => {
    const { api } = await h.platform();
    const p = await payer(api, '000');
    const before = await settled();
    const quote = await api.post('/quotes', quoteBody(p.usd, p.bank));
    expect(quote.status).toBe(201);
    expect((await statements()) - before).toBeLessThanOrEqual(3);
    expect((await api.get(`/transactions/${quote.body.transactionId}`)).body).toMatchObject({
      status: 'PENDING',
      quoteId: quote.body.id,
      sentAmount: { amount: 1_000 },
    });
  });

  test('completion: the rows read and locked in one statement, settled, both written in one, the events in one (≤ 5); their first delivery attempts ≤ 3', async () => {
    const { api } = await h.platform();
    // 003: the sandbox rail answers after minutes, so the completion step is run here.
    const p = await payer(api, '003');
    const quote = await api.post('/quotes', quoteBody(p.usd, p.bank));
    expect((await api.post(`/quotes/${quote.body.id}/execute`)).status).toBe(200);
    // The execution's webhooks are delivered while the payment waits for the rail: not measured here.
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'OUTGOING_PAYMENT.PROCESSING' && w.body.data.id === quote.body.transactionId));
    const before = await settled();
    const { events } = await completeOutgoingPayment(h.orm.em.fork(), { transactionId: quote.body.transactionId });
    const completed = await statements();
    expect(completed - before).toBeLessThanOrEqual(5);
    expect(events.map((e) => e.type).sort()).toEqual(['INTERNAL_ACCOUNT.BALANCE_UPDATED', 'OUTGOING_PAYMENT.COMPLETED']);

    const { deliverWebhooks } = createActivities({ orm: h.orm, masterKey: h.masterKey, webhookSender: loopbackWebhookSender }) as unknown as {
      deliverWebhooks: (input: { eventIds: string[] }) => Promise<{ outcome: { kind: string } }[]>;
    };
    const outcomes = await deliverWebhooks({ eventIds: events.map((e) => e.eventId) });
    expect(outcomes.map((o) => o.outcome.kind)).toEqual(['DELIVERED', 'DELIVERED']);
    expect((await statements()) - completed).toBeLessThanOrEqual(3);
    const hook = h.receiver.received.find((w) => w.body.type === 'OUTGOING_PAYMENT.COMPLETED' && w.body.data.id === quote.body.transactionId)!;
    expect(hook.body.data).toMatchObject({ status: 'COMPLETED', settledAt: expect.any(String), platformCustomerId: expect.any(String) });
    const balances = h.receiver.received.filter((w) => w.body.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && w.body.data.id === p.usd).map((w) => w.body.data);
    // After the hold: 99,000 available of 100,000; after the settlement: 99,000 of 99,000.
    expect(balances).toContainEqual(
      expect.objectContaining({ balance: expect.objectContaining({ amount: 99_000 }), totalBalance: expect.objectContaining({ amount: 99_000 }) }),
    );
  });

  test('execution: the route reads the quote, the worker reads everything it needs in one locked statement, holds, writes both statuses in one and the events in one (≤ 8); the first attempts of its webhooks ≤ 3', async () => {
    const { api } = await h.platform();
    // 003: the sandbox rail answers after minutes: only the execution and its webhooks run.
    const p = await payer(api, '003');
    const quote = await api.post('/quotes', quoteBody(p.usd, p.bank));
    const before = await settled();
    const executed = await api.post(`/quotes/${quote.body.id}/execute`);
    expect(executed.status).toBe(200);
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'OUTGOING_PAYMENT.PROCESSING' && w.body.data.id === quote.body.transactionId));
    const total = (await settled()) - before;
    console.log(`SQL statements of an execution with its webhooks' first attempts: ${total}`);
    expect(total).toBeLessThanOrEqual(11);
  });

  test('quote request → COMPLETED webhook delivered: at most 20 statements', async () => {
    const { api } = await h.platform();
    const p = await payer(api, '000');
    const payout = async () => {
      const start = await settled();
      const quote = await api.post('/quotes', quoteBody(p.usd, p.bank));
      expect((await api.post(`/quotes/${quote.body.id}/execute`)).status).toBe(200);
      await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'OUTGOING_PAYMENT.COMPLETED' && w.body.data.id === quote.body.transactionId));
      return (await settled()) - start;
    };
    await payout();
    const total = await payout();
    console.log(`SQL statements per payout, quote request to COMPLETED webhook: ${total}`);
    expect(total).toBeLessThanOrEqual(20);
  });
});

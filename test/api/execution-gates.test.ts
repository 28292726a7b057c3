import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { decideHold } from '../../src/contexts/payments/starters/payment';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';
import { GATES_WITH_HELD, HELD_GATE } from '../support/held-gate';

// The worker runs the registered gates plus one only tests register (test/support/held-gate.ts):
// it holds every execution whose quote's description is `hold:<seconds>`.
let h: Harness;
beforeAll(async () => {
  h = await Harness.start({ executionGates: GATES_WITH_HELD });
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

async function heldPayout(holdSeconds: number, kind: 'hold' | 'wait' = 'hold') {
  const { api } = await h.platform();
  const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `g-${Math.random()}`, fullName: 'Jane Doe' });
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&currency=USD`);
  const usd = accounts.body.data[0].id as string;
  expect((await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 100_000 })).status).toBe(200);
  const bank = await api.post('/customers/external-accounts', { customerId: customer.body.id, ...eurAccount(ibanOf('DE', '370400440532013999')) });
  const quote = (
    await api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
      description: `${kind}:${holdSeconds}`,
    })
  ).body;
  const executed = await api.post(`/quotes/${quote.id}/execute`, undefined, { 'Idempotency-Key': `exec-${quote.id}` });
  return { api, usd, quote, executed };
}

const balanceOf = async (api: Api, accountId: string) =>
  (await api.get(`/customers/internal-accounts?limit=100`)).body.data.find((a: { id: string }) => a.id === accountId).balance.amount as number;
const transactionOf = (api: Api, id: string) => api.get(`/transactions/${id}`).then((r) => r.body);
const hooksOf = (transactionId: string) => h.receiver.received.filter((w) => w.body.data?.id === transactionId).map((w) => w.body.type);
const decide = (
  transactionId: string,
  decision: 'APPROVE' | 'REJECT',
  gate = HELD_GATE,
  more: { reason?: string; failureReason?: string; failed?: boolean } = {},
) => decideHold(h.temporal, transactionId, { gate, decision, decisionId: `${decision}-${Math.random()}`, ...more });
/** What the test gate told of a quote's hold (its own TEST webhooks), in the order delivered. */
const gateSteps = (quoteId: string) =>
  h.receiver.received.filter((w) => w.body.type === 'TEST' && w.body.data?.quoteId === quoteId).map((w) => w.body.data as { step: string; reason?: string });

describe('a payment an execution gate holds', () => {
  test('the execution is answered held: nothing moves, the quote and transaction show PENDING_AUTHORIZATION, another execute is 409, a retry the same answer', async () => {
    const { api, usd, quote, executed } = await heldPayout(3600);
    expect(executed.status).toBe(200);
    expect(executed.body).toMatchObject({ id: quote.id, status: 'PENDING_AUTHORIZATION', transactionId: quote.transactionId });
    expect((await api.get(`/quotes/${quote.id}`)).body.status).toBe('PENDING_AUTHORIZATION');
    expect(await transactionOf(api, quote.transactionId)).toMatchObject({ status: 'PENDING_AUTHORIZATION' });
    // The platform is told: the held payment, as GET /transactions/{id} shows it.
    const isHeldHook = (w: (typeof h.receiver.received)[number]) =>
      w.body.data?.id === quote.transactionId && w.body.type === 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION';
    await h.receiver.waitFor((hooks) => hooks.some(isHeldHook));
    const announced = h.receiver.received.find(isHeldHook)!;
    expect(announced.body.data).toMatchObject({ id: quote.transactionId, status: 'PENDING_AUTHORIZATION', quoteId: quote.id, type: 'OUTGOING' });
    expect(announced.body.data.sentAmount).toMatchObject({ amount: quote.totalSendingAmount });
    expect(await balanceOf(api, usd)).toBe(100_000);
    const retried = await api.post(`/quotes/${quote.id}/execute`, undefined, { 'Idempotency-Key': `exec-${quote.id}` });
    expect(retried.status).toBe(200);
    expect(retried.text).toBe(executed.text);
    const other = await api.post(`/quotes/${quote.id}/execute`, undefined, { 'Idempotency-Key': 'another' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('CONFLICT');
    // A decision for a gate that does not hold it is refused.
    await expect(decide(quote.transactionId, 'APPROVE', 'some-other-gate')).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  test('hold → approve: the execution runs once, the payout completes, funds leave once, webhooks of a payout', async () => {
    const { api, usd, quote } = await heldPayout(3600);
    const answer = await decide(quote.transactionId, 'APPROVE');
    expect(answer).toMatchObject({ transactionId: quote.transactionId });
    expect(answer.held).toBeUndefined();
    await eventually(
      () => transactionOf(api, quote.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect(await balanceOf(api, usd)).toBe(100_000 - quote.totalSendingAmount);
    // Decided: a second approval finds nothing held.
    await expect(decide(quote.transactionId, 'APPROVE')).rejects.toMatchObject({ code: expect.stringMatching(/CONFLICT/) });
    await h.receiver.waitFor(() => hooksOf(quote.transactionId).includes('OUTGOING_PAYMENT.COMPLETED'));
    expect(hooksOf(quote.transactionId).sort()).toEqual([
      'OUTGOING_PAYMENT.COMPLETED',
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.PENDING_AUTHORIZATION',
      'OUTGOING_PAYMENT.PROCESSING',
    ]);
    // The execution after the approval is the held request's: retried with its key, it is answered executed.
    const retried = await api.post(`/quotes/${quote.id}/execute`, undefined, { 'Idempotency-Key': `exec-${quote.id}` });
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe('PROCESSING');
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('hold → reject: FAILED with nothing moved, its webhook, and no later approval revives it', async () => {
    const { api, usd, quote } = await heldPayout(3600);
    await decide(quote.transactionId, 'REJECT');
    const failed = await eventually(
      () => transactionOf(api, quote.transactionId),
      (t) => t.status === 'FAILED',
    );
    expect(failed.failureReason).toBe('QUOTE_EXECUTION_FAILED');
    expect((await api.get(`/quotes/${quote.id}`)).body.status).toBe('FAILED');
    expect(await balanceOf(api, usd)).toBe(100_000);
    await h.receiver.waitFor(() => hooksOf(quote.transactionId).includes('OUTGOING_PAYMENT.FAILED'));
    expect(hooksOf(quote.transactionId).sort()).toEqual(['OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION']);
    await expect(decide(quote.transactionId, 'APPROVE')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await balanceOf(api, usd)).toBe(100_000);
  });

  test('a rejection and an approval sent together: exactly one decides, and the payment ends as that one says', async () => {
    for (const order of [['REJECT', 'APPROVE'] as const, ['APPROVE', 'REJECT'] as const]) {
      const { api, usd, quote } = await heldPayout(3600);
      const answers = await Promise.allSettled(order.map((decision) => decide(quote.transactionId, decision)));
      const won = order.filter((_, i) => answers[i]!.status === 'fulfilled');
      expect(won).toHaveLength(1);
      expect(answers.find((a) => a.status === 'rejected')).toMatchObject({ reason: { code: 'CONFLICT' } });
      const ended = await eventually(
        () => transactionOf(api, quote.transactionId),
        (t) => t.status === 'FAILED' || t.status === 'COMPLETED',
      );
      expect(ended.status).toBe(won[0] === 'REJECT' ? 'FAILED' : 'COMPLETED');
      expect(await balanceOf(api, usd)).toBe(won[0] === 'REJECT' ? 100_000 : 100_000 - quote.totalSendingAmount);
    }
  });

  test('hold → expire: nobody decides in time, the payment is EXPIRED with nothing moved', async () => {
    const { api, usd, quote } = await heldPayout(2);
    const expired = await eventually(
      () => transactionOf(api, quote.transactionId),
      (t) => t.status === 'EXPIRED',
      30_000,
    );
    expect(expired.failureReason).toBe('QUOTE_EXPIRED');
    expect((await api.get(`/quotes/${quote.id}`)).body.status).toBe('EXPIRED');
    expect(await balanceOf(api, usd)).toBe(100_000);
    await h.receiver.waitFor(() => hooksOf(quote.transactionId).includes('OUTGOING_PAYMENT.EXPIRED'));
    expect(hooksOf(quote.transactionId).sort()).toEqual(['OUTGOING_PAYMENT.EXPIRED', 'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION']);
    await expect(decide(quote.transactionId, 'APPROVE')).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});

describe('a hold that leaves the payment PENDING (a decision by someone else, as a platform approving an agent)', () => {
  test('nothing moves, the quote and transaction stay PENDING with no payment webhook, the gate tells of its hold, another execute is 409', async () => {
    const { api, usd, quote, executed } = await heldPayout(3600, 'wait');
    expect(executed.status).toBe(200);
    expect(executed.body).toMatchObject({ id: quote.id, status: 'PENDING', transactionId: quote.transactionId });
    expect((await api.get(`/quotes/${quote.id}`)).body.status).toBe('PENDING');
    expect(await transactionOf(api, quote.transactionId)).toMatchObject({ status: 'PENDING' });
    await h.receiver.waitFor(() => gateSteps(quote.id).length > 0);
    expect(gateSteps(quote.id)).toEqual([{ gate: HELD_GATE, quoteId: quote.id, step: 'HELD' }]);
    expect(hooksOf(quote.transactionId)).toEqual([]);
    expect(await balanceOf(api, usd)).toBe(100_000);
    const other = await api.post(`/quotes/${quote.id}/execute`, undefined, { 'Idempotency-Key': 'another' });
    expect([other.status, other.body.code]).toEqual([409, 'CONFLICT']);
  });

  test('approve: the gate passes with its own event, the payout completes once', async () => {
    const { api, usd, quote } = await heldPayout(3600, 'wait');
    await decide(quote.transactionId, 'APPROVE');
    await eventually(
      () => transactionOf(api, quote.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect(await balanceOf(api, usd)).toBe(100_000 - quote.totalSendingAmount);
    await h.receiver.waitFor(() => gateSteps(quote.id).some((step) => step.step === 'APPROVED'));
    expect(gateSteps(quote.id).map((step) => step.step)).toEqual(['HELD', 'APPROVED']);
    await h.receiver.waitFor(() => hooksOf(quote.transactionId).includes('OUTGOING_PAYMENT.COMPLETED'));
    expect(hooksOf(quote.transactionId).sort()).toEqual(['OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING']);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test("reject with a reason: FAILED with the decider's failureReason, and the gate is told REJECTED with the reason in the same step", async () => {
    const { api, usd, quote } = await heldPayout(3600, 'wait');
    await decide(quote.transactionId, 'REJECT', HELD_GATE, { reason: 'not this one', failureReason: 'COMPLIANCE_REJECTED' });
    const failed = await eventually(
      () => transactionOf(api, quote.transactionId),
      (t) => t.status === 'FAILED',
    );
    expect(failed.failureReason).toBe('COMPLIANCE_REJECTED');
    expect((await api.get(`/quotes/${quote.id}`)).body.status).toBe('FAILED');
    await h.receiver.waitFor(() => gateSteps(quote.id).length === 2);
    expect(gateSteps(quote.id).slice(1)).toEqual([{ gate: HELD_GATE, quoteId: quote.id, step: 'REJECTED', reason: 'not this one' }]);
    expect(await balanceOf(api, usd)).toBe(100_000);
  });

  test('a rejection that ends a refused approval is FAILED to the gate', async () => {
    const { quote } = await heldPayout(3600, 'wait');
    await decide(quote.transactionId, 'REJECT', HELD_GATE, { reason: 'the quote expired', failureReason: 'QUOTE_EXPIRED', failed: true });
    await h.receiver.waitFor(() => gateSteps(quote.id).length === 2);
    expect(gateSteps(quote.id)[1]).toMatchObject({ step: 'FAILED', reason: 'the quote expired' });
  });

  test('expire: EXPIRED, and the gate is told', async () => {
    const { api, quote } = await heldPayout(2, 'wait');
    await eventually(
      () => transactionOf(api, quote.transactionId),
      (t) => t.status === 'EXPIRED',
      30_000,
    );
    await h.receiver.waitFor(() => gateSteps(quote.id).length === 2);
    expect(gateSteps(quote.id)[1]).toMatchObject({ step: 'EXPIRED' });
  });
});

describe('a gate that holds funds which have arrived (a programming error)', () => {
  test('the real-time funding fails at once with 500 INTERNAL_ERROR, is not retried, and nothing moves', async () => {
    const { api } = await h.platform();
    const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `g-${Math.random()}`, fullName: 'Jane Doe' });
    const bank = await api.post('/customers/external-accounts', { customerId: customer.body.id, ...eurAccount(ibanOf('DE', '370400440532013999')) });
    const quote = (
      await api.post('/quotes', {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: customer.body.id },
        destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
        description: 'hold:60',
      })
    ).body;
    const sent = await api.post('/sandbox/send', { quoteId: quote.id, currencyCode: 'USD' });
    expect([sent.status, sent.body.code]).toEqual([500, 'INTERNAL_ERROR']);
    expect((await api.get(`/quotes/${quote.id}`)).body.status).toBe('PENDING');
    expect(await transactionOf(api, quote.transactionId)).toMatchObject({ status: 'PENDING' });
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  }, 60_000);
});

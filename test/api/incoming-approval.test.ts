import { createServer, type Server } from 'node:http';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { Transaction } from '../../src/contexts/payments/entities';
import { createApp } from '../../src/api/app';
import { newId } from '../../src/domain/ids';
import { InternalAccount, JournalEntry } from '../../src/contexts/ledger/entities';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { createActivities } from '../../activities';
import { loopbackWebhookSender } from '../support/receiver';
import type { IncomingPaymentInput } from '../../workflows/payments/definitions';
import type { IncomingPaymentDecision } from '../../src/contexts/payments/domain/incoming-approval';
import { Api, Harness } from '../support/harness';

/** What the platform's endpoint answers an INCOMING_PAYMENT.PENDING call with; every other event gets 200. */
type Answer = { status: number; body?: unknown; delayMs?: number };

interface Hook {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  body: { id: string; type: string; data: Record<string, unknown> };
}

/** A platform's webhook endpoint of its own, whose answer to the approval call each test chooses. */
class ApprovalEndpoint {
  readonly received: Hook[] = [];
  answer: (hook: Hook) => Answer = () => ({ status: 200 });
  url = '';
  private server?: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const hook: Hook = { headers: req.headers, rawBody, body: JSON.parse(rawBody) as Hook['body'] };
        this.received.push(hook);
        const answer = hook.body.type === 'INCOMING_PAYMENT.PENDING' ? this.answer(hook) : { status: 200 };
        setTimeout(() => {
          res.statusCode = answer.status;
          if (answer.body !== undefined) res.setHeader('content-type', 'application/json');
          res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
        }, answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/webhooks`;
    return this;
  }

  of(transactionId: string, type?: string): Hook[] {
    return this.received.filter((h) => h.body.data?.id === transactionId && (!type || h.body.type === type));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Retries `check` until it passes or the time is up (deliveries and timers finish after the answer). */
async function eventually(check: () => unknown, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

let h: Harness;
let endpoint: ApprovalEndpoint;
/** The API with a 1.5-second approval window, so that the time-out is seen quickly. */
let shortWindowApp: ReturnType<typeof createApp>;
beforeAll(async () => {
  h = await Harness.start();
  endpoint = await new ApprovalEndpoint().start();
  shortWindowApp = createApp({ ...h.deps, incomingPaymentApprovalWindowMs: 1_500 });
});
afterAll(async () => {
  await endpoint.stop();
  await h.stop();
});

/** A platform whose endpoint is `endpoint`, and a customer of it with a UMA address. */
async function receiverSetup(options: { webhookEndpoint?: string | null } = {}) {
  const p = await h.platform({ webhookEndpoint: options.webhookEndpoint === undefined ? endpoint.url : options.webhookEndpoint });
  const customer = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `r-${Math.random()}`,
    fullName: 'Bob Receiver',
    umaAddress: p.uma(`bob.${Date.now()}${Math.floor(Math.random() * 1000)}`),
  });
  expect(customer.status).toBe(201);
  return { ...p, customer: customer.body as { id: string; umaAddress: string } };
}

function receive(api: Api, customer: { umaAddress: string }, amount = 2_500, senderUmaAddress = '$alice@sender.example.com') {
  return api.post('/sandbox/uma/receive', {
    senderUmaAddress,
    receiverUmaAddress: customer.umaAddress,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: amount,
  });
}

async function usdBalance(api: Api, customerId: string): Promise<number> {
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`);
  return accounts.body.data[0].balance.amount as number;
}

async function ledgerEntriesOf(transactionId: string): Promise<number> {
  return h.orm.em.fork().count(JournalEntry, { transactionId });
}

async function stored(transactionId: string): Promise<Transaction> {
  return h.orm.em.fork().findOneOrFail(Transaction, { id: transactionId });
}

describe('the approval call: INCOMING_PAYMENT.PENDING answered by the platform', () => {
  test('200: approved in-line; the call is signed and carries the transaction and requestedReceiverCustomerInfoFields; posted once', async () => {
    const { api, customer } = await receiverSetup();
    endpoint.answer = () => ({ status: 200, body: { receiverCustomerInfo: { FULL_NAME: 'Bob Receiver' } } });
    const res = await receive(api, customer);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'COMPLETED', type: 'INCOMING', customerId: customer.id });
    expect(await usdBalance(api, customer.id)).toBe(2_500);
    expect(await ledgerEntriesOf(res.body.id)).toBe(1);

    const [pending, ...more] = endpoint.of(res.body.id, 'INCOMING_PAYMENT.PENDING');
    expect(more).toEqual([]);
    expect(pending!.body.data).toMatchObject({
      id: res.body.id,
      status: 'PENDING',
      type: 'INCOMING',
      customerId: customer.id,
      source: { sourceType: 'UMA_ADDRESS', umaAddress: '$alice@sender.example.com' },
      receivedAmount: { amount: 2_500, currency: { code: 'USD' } },
      requestedReceiverCustomerInfoFields: [],
    });
    // Signed like every delivery.
    expect(pending!.headers['x-grid-signature']).toEqual(expect.any(String));
    expect((await stored(res.body.id)).receiverCustomerInfo).toEqual({ FULL_NAME: 'Bob Receiver' });

    await eventually(() => expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.COMPLETED')).toHaveLength(1));
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('approved but not creditable (sender 006): FAILED OFFRAMP_FAILED, nothing credited, refunded to the sender: REFUND_PENDING then REFUND_COMPLETED', async () => {
    const { api, customer } = await receiverSetup();
    endpoint.answer = () => ({ status: 200 });
    const res = await receive(api, customer, 2_500, '$alice006@sender.example.com');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'FAILED',
      failureReason: 'OFFRAMP_FAILED',
      refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED', reference: expect.any(String), settledAt: expect.any(String) },
    });
    expect(await usdBalance(api, customer.id)).toBe(0);
    expect(await ledgerEntriesOf(res.body.id)).toBe(0);
    await eventually(() => expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.REFUND_COMPLETED')).toHaveLength(1));
    // In the reference's order, each once: the failure, the refund begun (not settled), the refund settled.
    expect(endpoint.of(res.body.id).map((hook) => hook.body.type)).toEqual([
      'INCOMING_PAYMENT.PENDING',
      'INCOMING_PAYMENT.FAILED',
      'INCOMING_PAYMENT.REFUND_PENDING',
      'INCOMING_PAYMENT.REFUND_COMPLETED',
    ]);
    const [begun] = endpoint.of(res.body.id, 'INCOMING_PAYMENT.REFUND_PENDING');
    expect(begun!.body.data.refund).toEqual({ ...res.body.refund, status: 'PENDING', settledAt: undefined });
    expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.REFUND_COMPLETED')[0]!.body.data).toEqual(res.body);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('sender 007: the refund fails too: REFUND_PENDING then REFUND_FAILED', async () => {
    const { api, customer } = await receiverSetup();
    endpoint.answer = () => ({ status: 200 });
    const res = await receive(api, customer, 2_500, '$alice007@sender.example.com');
    expect(res.body).toMatchObject({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED', refund: { status: 'FAILED', reason: 'TRANSACTION_FAILED' } });
    expect(res.body.refund.settledAt).toBeUndefined();
    expect(await usdBalance(api, customer.id)).toBe(0);
    await eventually(() => expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.REFUND_FAILED')).toHaveLength(1));
    expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.REFUND_PENDING')).toHaveLength(1);
    expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.REFUND_COMPLETED')).toHaveLength(0);
  });

  test('403: rejected, REJECTED with the platform reason kept, nothing moved, announced as INCOMING_PAYMENT.FAILED', async () => {
    const { api, customer } = await receiverSetup();
    endpoint.answer = () => ({ status: 403, body: { code: 'FORBIDDEN', message: 'no', reason: 'RESTRICTED_JURISDICTION' } });
    const res = await receive(api, customer);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('REJECTED');
    expect(res.body.failureReason).toBeUndefined();
    expect(await usdBalance(api, customer.id)).toBe(0);
    expect(await ledgerEntriesOf(res.body.id)).toBe(0);
    expect((await stored(res.body.id)).rejectionReason).toBe('RESTRICTED_JURISDICTION');
    await eventually(() => expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.FAILED')).toHaveLength(1));
    expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.FAILED')[0]!.body.data.status).toBe('REJECTED');
    expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.PENDING')).toHaveLength(1);
  });

  test('422: more counterparty information needed: FAILED MISSING_MANDATORY_PAYEE_DATA, nothing moved', async () => {
    const { api, customer } = await receiverSetup();
    endpoint.answer = () => ({ status: 422, body: { code: 'UNPROCESSABLE', message: 'more', requiredFields: ['TAX_ID'] } });
    const res = await receive(api, customer);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'FAILED', failureReason: 'MISSING_MANDATORY_PAYEE_DATA' });
    expect(await usdBalance(api, customer.id)).toBe(0);
    expect(await ledgerEntriesOf(res.body.id)).toBe(0);
    await eventually(() => expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.FAILED')).toHaveLength(1));
  });

  test('5xx, or no answer: FAILED PAYMENT_APPROVAL_WEBHOOK_ERROR; the call is never retried', async () => {
    const { api, customer } = await receiverSetup();
    endpoint.answer = () => ({ status: 503 });
    const res = await receive(api, customer);
    expect(res.body).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' });
    expect(await usdBalance(api, customer.id)).toBe(0);

    const down = await receiverSetup({ webhookEndpoint: 'http://127.0.0.1:9/webhooks' });
    const unanswered = await receive(down.api, down.customer);
    expect(unanswered.body).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' });
    expect(await usdBalance(down.api, down.customer.id)).toBe(0);

    await eventually(() => expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.FAILED')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 500));
    expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.PENDING')).toHaveLength(1);
  });

  test('an approval call that never went out (the worker stopped in between) is closed with the decision: no sweeper sends it late', async () => {
    const { customer, platform } = await receiverSetup();
    const account = await h.orm.em.fork().findOneOrFail(InternalAccount, { customerId: customer.id, currency: 'USD' });
    const activities = createActivities({ orm: h.orm, masterKey: h.masterKey, webhookSender: loopbackWebhookSender }) as unknown as {
      recordIncomingPaymentPending(input: IncomingPaymentInput): Promise<{ eventId: string }>;
      concludeIncomingPayment(input: { payment: IncomingPaymentInput; decision: IncomingPaymentDecision }): Promise<{ status: string }>;
    };
    const payment: IncomingPaymentInput = {
      transactionId: newId('Transaction'),
      platformId: platform.id,
      environment: 'SANDBOX',
      customerId: customer.id,
      internalAccountId: account.id,
      currency: 'USD',
      amount: '100',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: '$alice@sender.example.com' },
    };
    const { eventId } = await activities.recordIncomingPaymentPending(payment);
    const concluded = await activities.concludeIncomingPayment({ payment, decision: { decision: 'FAIL', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' } });
    expect(concluded.status).toBe('FAILED');
    expect((await h.orm.em.fork().findOneOrFail(WebhookEvent, { id: eventId })).state).toBe('FAILED');
  });

  test('a platform without a webhook endpoint has no one to ask: approved at once, as before', async () => {
    const { api, customer } = await receiverSetup({ webhookEndpoint: null });
    const res = await receive(api, customer);
    expect(res.body.status).toBe('COMPLETED');
    expect(await usdBalance(api, customer.id)).toBe(2_500);
  });

  test('sandbox funding is no UMA payment: no approval call', async () => {
    const { api, customer } = await receiverSetup();
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&currency=USD`);
    endpoint.answer = () => ({ status: 403 });
    const funded = await api.post(`/sandbox/internal-accounts/${accounts.body.data[0].id}/fund`, { amount: 700 });
    expect(funded.body.balance.amount).toBe(700);
    await eventually(() => expect(endpoint.received.some((w) => w.body.type === 'INCOMING_PAYMENT.COMPLETED' && w.body.data.receivedAmount)).toBe(true));
    expect(endpoint.received.filter((w) => w.body.type === 'INCOMING_PAYMENT.PENDING' && w.body.data.customerId === customer.id)).toEqual([]);
  });
});

describe('202: the platform decides with POST /transactions/{id}/approve or /reject', () => {
  test('202 then approve: PENDING until approved, then COMPLETED and credited once; a second approve or a reject is 409', async () => {
    const { api, customer } = await receiverSetup();
    endpoint.answer = () => ({ status: 202 });
    const res = await receive(api, customer);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('PENDING');
    expect(await usdBalance(api, customer.id)).toBe(0);

    const approved = await api.post(`/transactions/${res.body.id}/approve`, { receiverCustomerInfo: { NATIONALITY: 'US' } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: res.body.id, status: 'COMPLETED', type: 'INCOMING' });
    expect(await usdBalance(api, customer.id)).toBe(2_500);
    expect(await ledgerEntriesOf(res.body.id)).toBe(1);
    expect((await stored(res.body.id)).receiverCustomerInfo).toEqual({ NATIONALITY: 'US' });

    const again = await api.post(`/transactions/${res.body.id}/approve`, {});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
    expect((await api.post(`/transactions/${res.body.id}/reject`, {})).body.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
    await eventually(() => expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.COMPLETED')).toHaveLength(1));
    expect(await usdBalance(api, customer.id)).toBe(2_500);
  });

  test('an approve retried with its Idempotency-Key is the same decision', async () => {
    const { api, customer } = await receiverSetup();
    endpoint.answer = () => ({ status: 202 });
    const res = await receive(api, customer);
    const key = `approve-${Math.random()}`;
    const [first, second] = await Promise.all([
      api.post(`/transactions/${res.body.id}/approve`, {}, { 'Idempotency-Key': key }),
      api.post(`/transactions/${res.body.id}/approve`, {}, { 'Idempotency-Key': key }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await ledgerEntriesOf(res.body.id)).toBe(1);
  });

  test('202 then reject: REJECTED with the reason kept, nothing moved', async () => {
    const { api, customer } = await receiverSetup();
    endpoint.answer = () => ({ status: 202 });
    const res = await receive(api, customer);
    const rejected = await api.post(`/transactions/${res.body.id}/reject`, { reason: 'RESTRICTED_JURISDICTION' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ id: res.body.id, status: 'REJECTED' });
    expect((await stored(res.body.id)).rejectionReason).toBe('RESTRICTED_JURISDICTION');
    expect(await usdBalance(api, customer.id)).toBe(0);
    expect(await ledgerEntriesOf(res.body.id)).toBe(0);
    expect((await api.post(`/transactions/${res.body.id}/approve`, {})).status).toBe(409);
    await eventually(() => expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.FAILED')).toHaveLength(1));
  });

  test('202 then nothing: FAILED PAYMENT_APPROVAL_TIMED_OUT when the window closes; a late approve is 409', async () => {
    const { auth, customer } = await receiverSetup();
    const api = new Api(shortWindowApp, auth);
    endpoint.answer = () => ({ status: 202 });
    const res = await receive(api, customer);
    expect(res.body.status).toBe('PENDING');
    await eventually(async () => expect((await api.get(`/transactions/${res.body.id}`)).body.status).toBe('FAILED'), 10_000);
    expect((await api.get(`/transactions/${res.body.id}`)).body.failureReason).toBe('PAYMENT_APPROVAL_TIMED_OUT');
    expect((await api.post(`/transactions/${res.body.id}/approve`, {})).status).toBe(409);
    expect(await usdBalance(api, customer.id)).toBe(0);
    await eventually(() => expect(endpoint.of(res.body.id, 'INCOMING_PAYMENT.FAILED')).toHaveLength(1));
  });

  test('approve and reject on what waits for no decision: 409; on another platform or unknown: 404; bad bodies: 400', async () => {
    const { api, customer, platform } = await receiverSetup();
    endpoint.answer = () => ({ status: 200 });
    const completed = await receive(api, customer);
    expect(completed.body.status).toBe('COMPLETED');
    expect((await api.post(`/transactions/${completed.body.id}/approve`, {})).body.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');

    // An outgoing payment waiting for nothing the platform decides.
    const em = h.orm.em.fork();
    const outgoingId = newId('Transaction');
    em.create(Transaction, {
      id: outgoingId,
      platformId: platform.id,
      customerId: customer.id,
      type: 'OUTGOING',
      direction: 'DEBIT',
      status: 'PENDING',
      source: { sourceType: 'ACCOUNT' },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$x@y.example.com' },
      receivedAmount: 1n,
      receivedCurrency: 'USD',
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await em.flush();
    const outgoing = await api.post(`/transactions/${outgoingId}/approve`, {});
    expect(outgoing.status).toBe(409);
    expect(outgoing.body.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');

    endpoint.answer = () => ({ status: 202 });
    const pending = await receive(api, customer);
    const other = await h.platform();
    expect((await other.api.post(`/transactions/${pending.body.id}/approve`, {})).status).toBe(404);
    expect((await other.api.post(`/transactions/${pending.body.id}/reject`, {})).status).toBe(404);
    expect((await api.post(`/transactions/${newId('Transaction')}/approve`, {})).status).toBe(404);

    const badApprove = await api.post(`/transactions/${pending.body.id}/approve`, { receiverCustomerInfo: 'US' });
    expect(badApprove.status).toBe(400);
    expect(badApprove.body.details.errors[0].field).toBe('receiverCustomerInfo');
    const badReject = await api.post(`/transactions/${pending.body.id}/reject`, { reason: 7, extra: true });
    expect(badReject.status).toBe(400);
    expect(badReject.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['body', 'reason']); // an unknown field is reported on the body
    // Still waiting: the refused requests changed nothing.
    expect((await api.post(`/transactions/${pending.body.id}/reject`)).body.status).toBe('REJECTED');
  });
});

import request from 'supertest';
import { Transaction } from '../../src/contexts/payments/entities';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { eventually } from '../support/eventually';
import { BASE, Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Platform = Awaited<ReturnType<Harness['platform']>>;

/** The dashboard's endpoints are beyond the reference: called with supertest directly, Basic or a session. */
const get = (p: Platform, path: string) => request(h.app).get(`${BASE}${path}`).set('Authorization', p.auth);
const post = (p: Platform, path: string, headers: Record<string, string> = {}) =>
  request(h.app).post(`${BASE}${path}`).set('Authorization', p.auth).set(headers);

/** A customer with a USD account, funded with 100,000 cents unless told not to; the FUNDING transaction's id. */
async function fundedCustomer(p: Platform, options: { beforeFunding?: (customerId: string) => void } = {}) {
  const customer = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `dash-${Math.random()}`, fullName: 'Jane Doe' });
  const accounts = await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&currency=USD`);
  const usd = accounts.body.data[0].id as string;
  options.beforeFunding?.(customer.body.id);
  expect((await p.api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 100_000 })).status).toBe(200);
  const funding = await h.orm.em.fork().findOneOrFail(Transaction, { destination: { accountId: usd } });
  return { customerId: customer.body.id as string, usd, fundingId: funding.id };
}

describe('GET /webhook-events and /webhook-events/{id}', () => {
  test("lists the platform's events with their state, filters by type, state and resource; the detail has the exact body sent and each attempt", async () => {
    const p = await h.platform();
    const { fundingId } = await fundedCustomer(p);
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'INCOMING_PAYMENT.COMPLETED' && w.body.data.id === fundingId));
    const delivered = await eventually(
      () => get(p, `/webhook-events?resourceId=${encodeURIComponent(fundingId)}&type=INCOMING_PAYMENT.COMPLETED`),
      (res) => res.status === 200 && res.body.data.length === 1 && res.body.data[0].state === 'DELIVERED',
    );
    const listed = delivered.body.data[0];
    expect(listed).toEqual({
      id: expect.any(String),
      type: 'INCOMING_PAYMENT.COMPLETED',
      resourceId: fundingId,
      state: 'DELIVERED',
      attempts: 1,
      lastResponseStatus: 200,
      lastAttemptAt: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(delivered.body).toMatchObject({ hasMore: false, totalCount: 1 });

    const all = await get(p, '/webhook-events?limit=1');
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(1);
    expect(all.body.hasMore).toBe(true);
    const next = await get(p, `/webhook-events?limit=100&cursor=${all.body.nextCursor}`);
    expect(next.body.data.map((e: { id: string }) => e.id)).not.toContain(all.body.data[0].id);
    expect(next.body.data.length + 1).toBe(all.body.totalCount);
    expect((await get(p, '/webhook-events?state=FAILED')).body.data).toEqual([]);

    const detail = await get(p, `/webhook-events/${listed.id}`);
    expect(detail.status).toBe(200);
    const sent = h.receiver.received.find((w) => w.body.id === listed.id)!;
    expect(detail.body.payload).toBe(sent.rawBody);
    expect(detail.body.resourceId).toBe(fundingId);
    expect(detail.body.deliveryAttempts).toEqual([
      { attemptedAt: expect.any(String), responseStatus: 200, durationMs: expect.any(Number), error: null, outcome: 'DELIVERED' },
    ]);

    const invalid = await get(p, '/webhook-events?state=LOST&createdAfter=yesterday');
    expect(invalid.status).toBe(400);
    expect(invalid.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['createdAfter', 'state']);
  });

  test("a refused attempt is recorded with its status; another platform's event is 404 and not listed", async () => {
    const p = await h.platform();
    const other = await h.platform();
    let refusedCustomer = '';
    h.receiver.respond = (hook, attempt) =>
      hook.body.type === 'INCOMING_PAYMENT.COMPLETED' && hook.body.data.customerId === refusedCustomer && attempt === 1 ? 500 : 200;
    try {
      const { fundingId } = await fundedCustomer(p, { beforeFunding: (customerId) => (refusedCustomer = customerId) });
      const event = await eventually(
        () => get(p, `/webhook-events?resourceId=${encodeURIComponent(fundingId)}&type=INCOMING_PAYMENT.COMPLETED`),
        (res) => res.body.data?.[0]?.attempts >= 1,
      );
      const id = event.body.data[0].id as string;
      const detail = await get(p, `/webhook-events/${id}`);
      expect(detail.body.deliveryAttempts[0]).toMatchObject({ responseStatus: 500, outcome: 'REJECTED', error: null });
      expect((await get(other, `/webhook-events/${id}`)).status).toBe(404);
      expect((await get(other, `/webhook-events?resourceId=${encodeURIComponent(fundingId)}`)).body.data).toEqual([]);
      expect((await post(other, `/webhook-events/${id}/resend`)).status).toBe(404);
    } finally {
      h.receiver.respond = () => 200;
    }
  });
});

describe('POST /webhook-events/{id}/resend', () => {
  test('delivers the same event (same id and body) again and records the attempt; a repeat with the same Idempotency-Key does not', async () => {
    const p = await h.platform();
    const { fundingId } = await fundedCustomer(p);
    const event = await eventually(
      () => get(p, `/webhook-events?resourceId=${encodeURIComponent(fundingId)}&type=INCOMING_PAYMENT.COMPLETED`),
      (res) => res.body.data?.[0]?.state === 'DELIVERED',
    );
    const id = event.body.data[0].id as string;
    const copies = () => h.receiver.received.filter((w) => w.body.id === id);
    expect(copies()).toHaveLength(1);
    const key = { 'Idempotency-Key': `resend-${id}` };
    const resent = await post(p, `/webhook-events/${id}/resend`, key);
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ id, type: 'INCOMING_PAYMENT.COMPLETED' });
    await h.receiver.waitFor(() => copies().length === 2);
    expect(copies()[1]!.rawBody).toBe(copies()[0]!.rawBody);
    const detail = await eventually(
      () => get(p, `/webhook-events/${id}`),
      (res) => res.body.deliveryAttempts?.length === 2,
    );
    expect(detail.body).toMatchObject({ state: 'DELIVERED', attempts: 2 });
    const repeat = await post(p, `/webhook-events/${id}/resend`, key);
    expect(repeat.status).toBe(202);
    expect(repeat.body.attempts).toBe(1);
    expect(copies()).toHaveLength(2);
  });
});

/** A EUR bank account whose IBAN ends in 000: the sandbox rail completes the payout at once. */
async function completedPayout(p: Platform, usd: string, customerId: string) {
  const bank = await p.api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', '370400440532013000')) });
  expect(bank.status).toBe(201);
  const quote = await p.api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: usd },
    destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1_000,
  });
  expect(quote.status).toBe(201);
  expect((await p.api.post(`/quotes/${quote.body.id}/execute`)).status).toBe(200);
  await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'OUTGOING_PAYMENT.COMPLETED' && w.body.data.id === quote.body.transactionId));
  return quote.body.transactionId as string;
}

describe('GET /dashboard/metrics', () => {
  test('counts a completed payout by status and volume, sums balances in minor units, and reports webhook health and approvals', async () => {
    const p = await h.platform();
    const { usd, customerId } = await fundedCustomer(p);
    await completedPayout(p, usd, customerId);
    const res = await get(p, '/dashboard/metrics?window=24h');
    expect(res.status).toBe(200);
    expect(res.body.window).toBe('24h');
    // The funding (incoming, 100,000) and the payout (outgoing, 1,000 USD sent), both COMPLETED.
    expect(res.body.payments.byStatus).toEqual({ COMPLETED: 2 });
    const usdVolume = res.body.payments.volume.filter((v: { currency: string }) => v.currency === 'USD');
    expect(usdVolume.reduce((n: number, v: { count: number }) => n + v.count, 0)).toBe(2);
    expect(usdVolume.reduce((n: number, v: { amount: number }) => n + v.amount, 0)).toBe(101_000);
    for (const v of res.body.payments.volume) expect(new Date(v.bucketStart).getUTCMinutes()).toBe(0);
    const usdBalance = res.body.balances.find((b: { currency: string }) => b.currency === 'USD');
    expect(usdBalance.total).toBe(usdBalance.available);
    expect(usdBalance.available).toBeLessThan(100_000);
    expect(Number.isInteger(usdBalance.available)).toBe(true);
    expect(res.body.webhooks).toEqual({ failing: 0, endpointPaused: false });
    expect(res.body.approvalsWaiting).toEqual({ agentActions: 0, incomingPayments: 0 });

    const week = await get(p, '/dashboard/metrics?window=7d');
    expect(week.body.payments.volume.every((v: { bucketStart: string }) => v.bucketStart.endsWith('T00:00:00.000Z'))).toBe(true);
    const other = await h.platform();
    expect((await get(other, '/dashboard/metrics')).body.payments.byStatus).toEqual({});
    expect((await get(p, '/dashboard/metrics?window=1y')).status).toBe(400);
  });
});

describe('GET /transactions/{id}/ledger-entries', () => {
  type Posting = { accountId: string; accountKind: string; direction: 'DEBIT' | 'CREDIT'; amount: { amount: number; currency: { code: string } } };
  type Entry = { id: string; description: string; postedAt: string; postings: Posting[] };

  test("a completed payout's entries: funds held then settled, debits equal credits per currency; another platform gets 404", async () => {
    const p = await h.platform();
    const { usd, customerId } = await fundedCustomer(p);
    const payoutId = await completedPayout(p, usd, customerId);
    const res = await get(p, `/transactions/${encodeURIComponent(payoutId)}/ledger-entries`);
    expect(res.status).toBe(200);
    const entries = res.body.data as Entry[];
    expect(entries.map((e) => e.description)).toEqual(['Outgoing payment: funds held', 'Outgoing payment settled']);
    for (const entry of entries) {
      expect(Number.isNaN(Date.parse(entry.postedAt))).toBe(false);
      const sides = new Map<string, { DEBIT: number; CREDIT: number }>();
      for (const posting of entry.postings) {
        expect(Number.isInteger(posting.amount.amount) && posting.amount.amount > 0).toBe(true);
        const side = sides.get(posting.amount.currency.code) ?? { DEBIT: 0, CREDIT: 0 };
        side[posting.direction] += posting.amount.amount;
        sides.set(posting.amount.currency.code, side);
        expect(posting.accountId === usd || posting.accountId.startsWith(`Ledger:${p.platform.id}:`)).toBe(true);
      }
      for (const [currency, side] of sides) expect({ currency, debits: side.DEBIT }).toEqual({ currency, debits: side.CREDIT });
    }
    // The hold takes the 1,000 cents sent from the customer's account into PENDING_OUTGOING.
    expect(entries[0]!.postings).toEqual([
      {
        accountId: usd,
        accountKind: 'INTERNAL_ACCOUNT',
        direction: 'DEBIT',
        amount: { amount: 1_000, currency: expect.objectContaining({ code: 'USD', decimals: 2 }) },
      },
      {
        accountId: `Ledger:${p.platform.id}:PENDING_OUTGOING:USD`,
        accountKind: 'PENDING_OUTGOING',
        direction: 'CREDIT',
        amount: { amount: 1_000, currency: expect.objectContaining({ code: 'USD' }) },
      },
    ]);

    const other = await h.platform();
    const refused = await get(other, `/transactions/${encodeURIComponent(payoutId)}/ledger-entries`);
    expect([refused.status, refused.body.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
    expect((await get(p, `/transactions/${encodeURIComponent('Transaction:00000000-0000-4000-8000-000000000000')}/ledger-entries`)).status).toBe(404);
  });
});

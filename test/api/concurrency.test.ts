import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import request from 'supertest';
import type { RouteSpec } from '../../src/api/route';
import { CONTEXTS_DIR, discover } from '../../src/contexts/discover';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { JournalEntry, LedgerAccount } from '../../src/contexts/ledger/entities';
import { ExternalAccount } from '../../src/contexts/external-accounts/entities';
import { Quote, Transaction } from '../../src/contexts/payments/entities';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf, usdAccount } from '../support/external-account-fixtures';
import { BASE, Harness } from '../support/harness';
import { WebhookReceiver, type ReceivedWebhook } from '../support/receiver';

// Proof under fire: 100 concurrent requests against the money-moving endpoints. Every scenario
// works in a platform of its own with a webhook receiver of its own, so what it counts is its own.

const N = 100;

let h: Harness;
let server: Server;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  h = await Harness.start();
  // One listening server for all requests (supertest would start one per request otherwise).
  server = await new Promise<Server>((resolve) => {
    const s = h.app.listen(0, '127.0.0.1', () => resolve(s));
  });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h.stop();
});

/** A platform whose webhooks go to a receiver of its own, and a client for it on the shared server. */
async function isolatedPlatform() {
  const receiver = await new WebhookReceiver().start();
  receivers.push(receiver);
  const p = await h.platform({ webhookEndpoint: receiver.url });
  const send = (path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = request(server).post(`${BASE}${path}`).set('Authorization', p.auth).set(headers);
    return body === undefined ? r : r.send(body as object);
  };
  // As a partner's client does: a 503 (the engine not reached within the request's deadline, as on a loaded
  // machine with a hundred requests at once) is sent again with the same Idempotency-Key after its Retry-After,
  // which the service answers by doing the work once. Without a key nothing is sent twice.
  const post = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
    for (let attempt = 1; ; attempt++) {
      const res = await send(path, body, headers);
      if (res.status !== 503 || !headers['Idempotency-Key'] || attempt === 5) return res;
      await new Promise((r) => setTimeout(r, Number(res.headers['retry-after'] ?? 1) * 1000));
    }
  };
  const get = (path: string) => request(server).get(`${BASE}${path}`).set('Authorization', p.auth);
  return { ...p, receiver, post, get };
}
type Platform = Awaited<ReturnType<typeof isolatedPlatform>>;

async function customer(p: Platform, extra: Record<string, unknown> = {}) {
  const created = await p.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${Math.random()}`, fullName: 'Jane Doe', ...extra });
  expect(created.status).toBe(201);
  const accounts = await p.get(`/customers/internal-accounts?customerId=${encodeURIComponent(created.body.id)}&currency=USD`);
  return { customerId: created.body.id as string, umaAddress: created.body.umaAddress as string | undefined, usd: accounts.body.data[0].id as string };
}

/** Funds an account and waits for the funding's own webhooks, so that they are not counted later. */
async function fund(p: Platform, accountId: string, amount: number) {
  expect((await p.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200);
  await p.receiver.waitFor(
    (hooks) => hooks.some((w) => w.body.type === 'INCOMING_PAYMENT.COMPLETED') && hooks.some((w) => w.body.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED'),
  );
  p.receiver.received.length = 0;
}

async function externalAccount(p: Platform, customerId: string, body: Record<string, unknown>) {
  const res = await p.post('/customers/external-accounts', { customerId, ...body });
  expect(res.status).toBe(201);
  // The sandbox's micro-entry window has passed.
  await h.orm.em.fork().nativeUpdate(ExternalAccount, { id: res.body.id }, { bankValidation: 'PASSED' });
  return res.body.id as string;
}

/** A customer whose USD account holds `amount`, with a EUR bank account that payouts reach. */
async function payer(p: Platform, amount: number) {
  const c = await customer(p);
  if (amount > 0) await fund(p, c.usd, amount);
  return { ...c, bank: await externalAccount(p, c.customerId, eurAccount(ibanOf('DE', '370400440532013999'))) };
}

const payoutQuote = (source: string, destination: string, amount: number, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  ...extra,
});

const balanceOf = async (accountId: string) => {
  const account = await h.orm.em.fork().findOneOrFail(LedgerAccount, { id: accountId });
  return { balance: account.balance, held: account.held };
};
const transactionsOf = (platformId: string) => h.orm.em.fork().find(Transaction, { platformId }, { orderBy: { createdAt: 'asc' } });
const settled = (p: Platform, transactionId: string) =>
  eventually(
    () => p.get(`/transactions/${transactionId}`).then((r) => r.body.status as string),
    (s) => s === 'COMPLETED' || s === 'FAILED' || s === 'REJECTED',
    60_000,
  );

/** Webhooks about money: payments and balances (not the customers' or external accounts' own). */
const moneyHooks = (hooks: ReceivedWebhook[]) =>
  hooks.filter((w) => /^(INCOMING_PAYMENT|OUTGOING_PAYMENT)\.|^INTERNAL_ACCOUNT\.BALANCE_UPDATED$/.test(w.body.type));

/** The money webhook types a platform received, sorted; each delivered once (no two copies of one event id). */
function webhookTypes(all: ReceivedWebhook[]): string[] {
  const hooks = moneyHooks(all);
  const ids = hooks.map((w) => w.body.id);
  expect(new Set(ids).size).toBe(ids.length);
  return hooks.map((w) => w.body.type).sort();
}

/**
 * One money-moving route under fire: `prepare` builds what it needs in a fresh platform and
 * returns the request, the effect a single request has, and the webhooks it sends.
 */
interface Scenario {
  prepare: (p: Platform) => Promise<{
    path: string;
    body?: unknown;
    /** The one effect, checked once every answer is in and the payment has settled. */
    effect: (tx: Transaction) => Promise<void>;
    /** Every webhook type one request sends (balance updates included), sorted. */
    webhooks: string[];
    /** The payment the request acts on when it exists already (a cancel, a decision), and how it ends (by default COMPLETED). */
    acting?: { transactionId: string; ends: 'COMPLETED' | 'FAILED' | 'REJECTED' };
  }>;
}

const payoutWebhooks = [
  'INTERNAL_ACCOUNT.BALANCE_UPDATED',
  'INTERNAL_ACCOUNT.BALANCE_UPDATED',
  'OUTGOING_PAYMENT.COMPLETED',
  'OUTGOING_PAYMENT.PENDING',
  'OUTGOING_PAYMENT.PROCESSING',
];

/** Keyed by "METHOD path" as the routes declare them. */
const scenarios: Record<string, Scenario> = {
  'POST /sandbox/internal-accounts/:accountId/fund': {
    prepare: async (p) => {
      const c = await customer(p);
      return {
        path: `/sandbox/internal-accounts/${c.usd}/fund`,
        body: { amount: 700 },
        effect: async () => expect(await balanceOf(c.usd)).toEqual({ balance: 700n, held: 0n }),
        webhooks: ['INCOMING_PAYMENT.COMPLETED', 'INTERNAL_ACCOUNT.BALANCE_UPDATED'],
      };
    },
  },
  'POST /quotes': {
    // With immediatelyExecute: created and paid out in one call.
    prepare: async (p) => {
      const c = await payer(p, 100_000);
      return {
        path: '/quotes',
        body: { ...payoutQuote(c.usd, c.bank, 10_000), immediatelyExecute: true },
        effect: async () => {
          expect(await h.orm.em.fork().count(Quote, { platformId: p.platform.id })).toBe(1);
          expect(await balanceOf(c.usd)).toEqual({ balance: 90_000n, held: 0n });
        },
        webhooks: payoutWebhooks,
      };
    },
  },
  'POST /quotes/:quoteId/execute': {
    prepare: async (p) => {
      const c = await payer(p, 100_000);
      const q = await p.post('/quotes', payoutQuote(c.usd, c.bank, 10_000));
      expect(q.status).toBe(201);
      return {
        path: `/quotes/${q.body.id}/execute`,
        effect: async (tx) => {
          expect(tx.quoteId).toBe(q.body.id);
          expect(await balanceOf(c.usd)).toEqual({ balance: 90_000n, held: 0n });
        },
        webhooks: payoutWebhooks,
      };
    },
  },
  'POST /transfer-out': {
    prepare: async (p) => {
      const c = await customer(p);
      await fund(p, c.usd, 100_000);
      const bank = await externalAccount(p, c.customerId, usdAccount('55501234'));
      return {
        path: '/transfer-out',
        body: { source: { accountId: c.usd }, destination: { accountId: bank, paymentRail: 'ACH' }, amount: 1_000 },
        effect: async () => expect(await balanceOf(c.usd)).toEqual({ balance: 99_000n, held: 0n }),
        webhooks: payoutWebhooks,
      };
    },
  },
  'POST /transfer-in': {
    prepare: async (p) => {
      const c = await customer(p);
      const bank = await externalAccount(p, c.customerId, usdAccount('123456999'));
      return {
        path: '/transfer-in',
        body: { source: { accountId: bank }, destination: { accountId: c.usd }, amount: 12_550 },
        effect: async (tx) => expect(await balanceOf(c.usd)).toEqual({ balance: tx.receivedAmount, held: 0n }),
        webhooks: ['INCOMING_PAYMENT.COMPLETED', 'INTERNAL_ACCOUNT.BALANCE_UPDATED'],
      };
    },
  },
  'POST /sandbox/send': {
    prepare: async (p) => {
      const c = await payer(p, 0);
      const q = await p.post('/quotes', {
        ...payoutQuote('', c.bank, 10_000),
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: c.customerId },
      });
      expect(q.status).toBe(201);
      return {
        path: '/sandbox/send',
        body: { quoteId: q.body.id, currencyCode: 'USD' },
        // Money from outside: the customer's account is untouched, the funding booked once.
        effect: async (tx) => {
          expect(tx.quoteId).toBe(q.body.id);
          expect(await balanceOf(c.usd)).toEqual({ balance: 0n, held: 0n });
        },
        webhooks: ['OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING'],
      };
    },
  },
  'POST /transactions/:transactionId/cancel': {
    // A payout the bank keeps pending (account number ending 003), cancelled: refunded once.
    prepare: async (p) => {
      const c = await customer(p);
      await fund(p, c.usd, 100_000);
      const bank = await externalAccount(p, c.customerId, usdAccount('123456003'));
      const q = (
        await p.post('/quotes', payoutQuote(c.usd, bank, 10_000, { destination: { destinationType: 'ACCOUNT', accountId: bank, paymentRail: 'ACH' } }))
      ).body;
      expect((await p.post(`/quotes/${q.id}/execute`)).status).toBe(200);
      await p.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'OUTGOING_PAYMENT.PROCESSING'));
      return {
        path: `/transactions/${q.transactionId}/cancel`,
        body: { reason: 'REQUESTED_AFTER_HOURS' },
        effect: async (tx) => {
          expect(tx.id).toBe(q.transactionId);
          expect(await balanceOf(c.usd)).toEqual({ balance: 100_000n, held: 0n });
        },
        // The payout's (its hold, PROCESSING) and the cancel's (FAILED, the refund and its balance update).
        webhooks: [
          'INTERNAL_ACCOUNT.BALANCE_UPDATED',
          'INTERNAL_ACCOUNT.BALANCE_UPDATED',
          'OUTGOING_PAYMENT.FAILED',
          'OUTGOING_PAYMENT.PENDING',
          'OUTGOING_PAYMENT.PROCESSING',
          'OUTGOING_PAYMENT.REFUND_COMPLETED',
          'OUTGOING_PAYMENT.REFUND_PENDING',
        ],
        acting: { transactionId: q.transactionId, ends: 'FAILED' },
      };
    },
  },
  'POST /sandbox/uma/receive': {
    prepare: async (p) => {
      const c = await customer(p, { umaAddress: p.uma(`bob.${Date.now()}${Math.floor(Math.random() * 1e6)}`) });
      return {
        path: '/sandbox/uma/receive',
        body: {
          senderUmaAddress: '$success.usd@sandbox.example.com',
          receiverUmaAddress: c.umaAddress,
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: 2_500,
        },
        effect: async () => expect(await balanceOf(c.usd)).toEqual({ balance: 2_500n, held: 0n }),
        // The approval call (answered 200 by the receiver) once, then the payment's.
        webhooks: ['INCOMING_PAYMENT.COMPLETED', 'INCOMING_PAYMENT.PENDING', 'INTERNAL_ACCOUNT.BALANCE_UPDATED'],
      };
    },
  },
  'POST /transactions/:transactionId/approve': {
    // A UMA payment the platform's webhook deferred (202), approved: credited once.
    prepare: async (p) => {
      const { transactionId, usd } = await deferredUmaPayment(p);
      return {
        path: `/transactions/${transactionId}/approve`,
        body: {},
        effect: async () => expect(await balanceOf(usd)).toEqual({ balance: 2_500n, held: 0n }),
        webhooks: ['INCOMING_PAYMENT.COMPLETED', 'INTERNAL_ACCOUNT.BALANCE_UPDATED'],
        acting: { transactionId, ends: 'COMPLETED' },
      };
    },
  },
  'POST /transactions/:transactionId/reject': {
    // The same, rejected: REJECTED once, nothing moved.
    prepare: async (p) => {
      const { transactionId, usd } = await deferredUmaPayment(p);
      return {
        path: `/transactions/${transactionId}/reject`,
        body: { reason: 'RESTRICTED_JURISDICTION' },
        effect: async (tx) => {
          expect(tx.rejectionReason).toBe('RESTRICTED_JURISDICTION');
          expect(await balanceOf(usd)).toEqual({ balance: 0n, held: 0n });
        },
        webhooks: ['INCOMING_PAYMENT.FAILED'],
        acting: { transactionId, ends: 'REJECTED' },
      };
    },
  },
};

/** A UMA payment of 2,500 whose platform answered its approval call 202: it waits for approve or reject (5 s). */
async function deferredUmaPayment(p: Platform) {
  const c = await customer(p, { umaAddress: p.uma(`bob.${Date.now()}${Math.floor(Math.random() * 1e6)}`) });
  p.receiver.respond = (hook) => (hook.body.type === 'INCOMING_PAYMENT.PENDING' ? 202 : 200);
  const received = await p.post('/sandbox/uma/receive', {
    senderUmaAddress: '$success.usd@sandbox.example.com',
    receiverUmaAddress: c.umaAddress,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: 2_500,
  });
  expect(received.body.status).toBe('PENDING');
  p.receiver.received.length = 0;
  return { transactionId: received.body.id as string, usd: c.usd };
}

/** The idempotent POST routes of the contexts that move money: each must have a scenario above. */
function moneyRoutes(): string[] {
  return discover<{ routes: RouteSpec<never, never, never>[] }>(CONTEXTS_DIR, 'api/index')
    .filter(({ context }) => context === 'payments' || context === 'ledger')
    .flatMap(({ module }) => module.routes)
    .filter((r) => r.idempotent && r.method === 'post')
    .map((r) => `POST ${r.path}`)
    .filter((route) => !MOVES_NO_MONEY.has(route))
    .sort();
}

/** Idempotent routes of these contexts that move no money (their repeats are checked where they are tested). */
const MOVES_NO_MONEY = new Set(['POST /sandbox/internal-accounts/:accountId/funding-instructions/reissue']);

/** Routes whose answer a workflow holds (`idempotent: 'workflow'`): Temporal answers their repeats, and no replay header marks them. */
function workflowAnsweredRoutes(): Set<string> {
  return new Set(
    discover<{ routes: RouteSpec<never, never, never>[] }>(CONTEXTS_DIR, 'api/index')
      .flatMap(({ module }) => module.routes)
      .filter((r) => r.idempotent === 'workflow')
      .map((r) => `POST ${r.path}`),
  );
}

describe(`${N} concurrent identical requests with one Idempotency-Key`, () => {
  test('every idempotent money-moving route has a scenario here', () => {
    expect(Object.keys(scenarios).sort()).toEqual(moneyRoutes());
  });

  test.each(Object.keys(scenarios))(
    '%s: one effect, one answer, one set of webhooks, clean ledger',
    async (route) => {
      const p = await isolatedPlatform();
      const s = await scenarios[route]!.prepare(p);
      const before = new Map((await transactionsOf(p.platform.id)).map((t) => [t.id, t.status]));

      const answers = await Promise.all(Array.from({ length: N }, () => p.post(s.path, s.body, { 'Idempotency-Key': `fire-${route}` })));

      const first = answers[0]!;
      expect(first.status).toBeLessThan(300);
      // Identical answers: the same status and the same bytes (so the same resource id).
      expect(answers.filter((a) => a.status !== first.status || a.text !== first.text).map((a) => `${a.status} ${a.text.slice(0, 160)}`)).toEqual([]);
      // Stored answers are marked as replays; a workflow's answers need no mark (they are one outcome).
      expect(answers.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(workflowAnsweredRoutes().has(route) ? N : 1);

      // Exactly one payment: a new transaction, or the quote's PENDING one moved on (or the one acted on).
      const moved = (await transactionsOf(p.platform.id)).filter(
        (t) => (!before.has(t.id) || before.get(t.id) === 'PENDING') && t.id !== s.acting?.transactionId,
      );
      expect(moved).toHaveLength(s.acting ? 0 : 1);
      const txId = s.acting?.transactionId ?? moved[0]!.id;
      if (String(first.body.id).startsWith('Transaction:')) expect(first.body.id).toBe(txId);
      await settled(p, txId);
      const final = await h.orm.em.fork().findOneOrFail(Transaction, { id: txId });
      expect(final.status).toBe(s.acting?.ends ?? 'COMPLETED');
      await s.effect(final);
      const entries = await h.orm.em.fork().find(JournalEntry, { platformId: p.platform.id });
      expect(new Set(entries.map((e) => e.idempotencyKey)).size).toBe(entries.length);

      // One set of webhooks: each expected event once, nothing more.
      await p.receiver.waitFor((hooks) => moneyHooks(hooks).length >= s.webhooks.length);
      // A retry long after, once the payment's workflow has ended: the first answer's status and resource, no new effect.
      const late = await p.post(s.path, s.body, { 'Idempotency-Key': `fire-${route}` });
      expect([late.status, late.body.id]).toEqual([first.status, first.body.id]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(webhookTypes(p.receiver.received)).toEqual(s.webhooks);
      expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
    },
    180_000,
  );
});

describe('one quote executed concurrently under different keys', () => {
  test(`${N} executes of one quote, each with its own Idempotency-Key: one execution, every other answer 409 CONFLICT`, async () => {
    const p = await isolatedPlatform();
    const c = await payer(p, 100_000);
    const q = (await p.post('/quotes', payoutQuote(c.usd, c.bank, 10_000))).body;

    const answers = await Promise.all(Array.from({ length: N }, (_, i) => p.post(`/quotes/${q.id}/execute`, undefined, { 'Idempotency-Key': `exec-${i}` })));

    const executed = answers.filter((a) => a.status === 200);
    expect(executed).toHaveLength(1);
    expect(executed[0]!.body).toMatchObject({ id: q.id, transactionId: q.transactionId });
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.filter((a) => a.status !== 409 || a.body.code !== 'CONFLICT').map((a) => `${a.status} ${a.text.slice(0, 160)}`)).toEqual([]);
    // Repeats are refused by their own keys' replays too: the same answer again, no new effect.
    const replay = await p.post(`/quotes/${q.id}/execute`, undefined, { 'Idempotency-Key': 'exec-1' });
    expect(replay.status).toBe(answers[1]!.status);

    expect(await settled(p, q.transactionId)).toBe('COMPLETED');
    expect(await balanceOf(c.usd)).toEqual({ balance: 90_000n, held: 0n });
    await p.receiver.waitFor((hooks) => moneyHooks(hooks).length >= payoutWebhooks.length);
    expect(webhookTypes(p.receiver.received)).toEqual(payoutWebhooks);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  }, 180_000);
});

describe('one real-time-funded quote paid concurrently under different keys', () => {
  test(`${N} sandbox sends for one quote, each with its own Idempotency-Key: funded once, every answer its one payment`, async () => {
    const p = await isolatedPlatform();
    const c = await payer(p, 0);
    const q = (
      await p.post('/quotes', { ...payoutQuote('', c.bank, 10_000), source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: c.customerId } })
    ).body;

    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) => p.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' }, { 'Idempotency-Key': `send-${i}` })),
    );

    expect(answers.filter((a) => a.status !== 200 || a.body.id !== q.transactionId).map((a) => `${a.status} ${a.text.slice(0, 160)}`)).toEqual([]);
    expect(await settled(p, q.transactionId)).toBe('COMPLETED');
    const entries = await h.orm.em.fork().find(JournalEntry, { transactionId: q.transactionId });
    expect(new Set(entries.map((e) => e.idempotencyKey)).size).toBe(entries.length);
    await p.receiver.waitFor((hooks) => moneyHooks(hooks).length >= 3);
    expect(webhookTypes(p.receiver.received)).toEqual(['OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING']);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  }, 180_000);
});

describe('many different payments from one account', () => {
  test(`${N} concurrent payouts of 1,000 from 60,000: 60 paid, the rest INSUFFICIENT_FUNDS, never negative, balance exact, webhooks per outcome`, async () => {
    const p = await isolatedPlatform();
    const c = await payer(p, 60_000);

    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        p.post('/quotes', { ...payoutQuote(c.usd, c.bank, 1_000), immediatelyExecute: true }, { 'Idempotency-Key': `payout-${i}` }),
      ),
    );

    const paid = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.filter((a) => a.status !== 400 || a.body.code !== 'INSUFFICIENT_FUNDS').map((a) => `${a.status} ${a.text.slice(0, 160)}`)).toEqual([]);
    // Refused only when the money was really gone: every payment the balance covered went through.
    expect(paid).toHaveLength(60);
    const paidIds = paid.map((a) => a.body.transactionId as string);
    expect(new Set(paidIds).size).toBe(paid.length);
    for (const id of paidIds) expect(await settled(p, id)).toBe('COMPLETED');
    const spent = paid.reduce((sum, a) => sum + BigInt(a.body.totalSendingAmount), 0n);
    expect(spent).toBe(60_000n);
    expect(await balanceOf(c.usd)).toEqual({ balance: 60_000n - spent, held: 0n });

    // The refused quotes were withdrawn with their transactions: only the paid ones remain.
    const quotes = await h.orm.em.fork().find(Quote, { platformId: p.platform.id });
    expect(quotes.map((q) => q.transactionId).sort()).toEqual([...paidIds].sort());
    expect(await h.orm.em.fork().count(Transaction, { platformId: p.platform.id, type: 'OUTGOING' })).toBe(60);

    // Webhooks follow the outcomes: PENDING, PROCESSING and COMPLETED once for each paid one, nothing for the others.
    const paymentHooks = () =>
      moneyHooks(p.receiver.received).filter((w) => w.body.type.startsWith('OUTGOING_PAYMENT.') && w.body.type !== 'OUTGOING_PAYMENT.EXPIRED');
    await p.receiver.waitFor(() => paymentHooks().length >= 3 * paid.length);
    webhookTypes(p.receiver.received);
    const byTransaction = new Map<string, string[]>();
    for (const w of paymentHooks()) byTransaction.set(String(w.body.data.id), [...(byTransaction.get(String(w.body.data.id)) ?? []), w.body.type]);
    expect([...byTransaction.keys()].sort()).toEqual([...paidIds].sort());
    for (const types of byTransaction.values())
      expect(types.sort()).toEqual(['OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING']);
    // Every balance announced was covered.
    for (const w of moneyHooks(p.receiver.received).filter((x) => x.body.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED')) {
      expect((w.body.data.balance as { amount: number }).amount).toBeGreaterThanOrEqual(0);
    }
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  }, 300_000);
});

describe('one payment cancelled concurrently', () => {
  test(`${N} concurrent cancels of an unsettled ACH payout: refunded once, every answer the cancelled payment or 409 TRANSACTION_NOT_CANCELLABLE`, async () => {
    const p = await isolatedPlatform();
    const c = await customer(p);
    await fund(p, c.usd, 100_000);
    // Account numbers ending 003: the bank keeps the payout pending, so it can be cancelled.
    const bank = await externalAccount(p, c.customerId, usdAccount('123456003'));
    const q = (await p.post('/quotes', payoutQuote(c.usd, bank, 10_000, { destination: { destinationType: 'ACCOUNT', accountId: bank, paymentRail: 'ACH' } })))
      .body;
    expect((await p.post(`/quotes/${q.id}/execute`)).status).toBe(200);
    await p.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'OUTGOING_PAYMENT.PROCESSING'));

    // Each cancel as a partner sends it: a key of its own, so a 503 (the engine not reached in time, as on a
    // loaded core with a hundred at once) is sent again after its Retry-After.
    const answers = await Promise.all(
      Array.from({ length: N }, () =>
        p.post(`/transactions/${q.transactionId}/cancel`, { reason: 'REQUESTED_AFTER_HOURS' }, { 'Idempotency-Key': randomUUID() }),
      ),
    );

    const cancelled = answers.filter((a) => a.status === 200);
    expect(cancelled.length).toBeGreaterThanOrEqual(1);
    for (const a of cancelled)
      expect(a.body).toMatchObject({ id: q.transactionId, status: 'FAILED', refund: { status: 'COMPLETED', reason: 'USER_CANCELLATION' } });
    expect(
      answers
        .filter((a) => a.status !== 200 && (a.status !== 409 || a.body.code !== 'TRANSACTION_NOT_CANCELLABLE'))
        .map((a) => `${a.status} ${a.text.slice(0, 160)}`),
    ).toEqual([]);

    expect(await balanceOf(c.usd)).toEqual({ balance: 100_000n, held: 0n });
    const refundHooks = [
      'OUTGOING_PAYMENT.FAILED',
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.PROCESSING',
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
      'OUTGOING_PAYMENT.REFUND_PENDING',
    ];
    await p.receiver.waitFor((hooks) => moneyHooks(hooks).filter((w) => w.body.type.startsWith('OUTGOING_PAYMENT.')).length >= refundHooks.length);
    webhookTypes(p.receiver.received);
    expect(
      moneyHooks(p.receiver.received)
        .filter((w) => w.body.type.startsWith('OUTGOING_PAYMENT.'))
        .map((w) => w.body.type)
        .sort(),
    ).toEqual(refundHooks);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  }, 180_000);
});

describe('another platform and the workflow-answered routes', () => {
  test("cannot cancel a platform's payout or pay its real-time quote, even with the owner's Idempotency-Key; the owner still can", async () => {
    const owner = await isolatedPlatform();
    const other = await isolatedPlatform();
    const c = await customer(owner);
    await fund(owner, c.usd, 100_000);
    const bank = await externalAccount(owner, c.customerId, usdAccount('123456003'));
    const q = (
      await owner.post('/quotes', payoutQuote(c.usd, bank, 10_000, { destination: { destinationType: 'ACCOUNT', accountId: bank, paymentRail: 'ACH' } }))
    ).body;
    expect((await owner.post(`/quotes/${q.id}/execute`)).status).toBe(200);

    const cancel = await other.post(`/transactions/${q.transactionId}/cancel`, {}, { 'Idempotency-Key': 'shared-key' });
    expect([cancel.status, cancel.body.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
    const realTime = (
      await owner.post('/quotes', { ...payoutQuote('', bank, 10_000), source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: c.customerId } })
    ).body;
    const send = await other.post('/sandbox/send', { quoteId: realTime.id, currencyCode: 'USD' }, { 'Idempotency-Key': 'shared-key' });
    expect([send.status, send.body.code]).toEqual([404, 'QUOTE_NOT_FOUND']);
    expect((await owner.get(`/quotes/${realTime.id}`)).body.status).toBe('PENDING');

    // The same key from the owner is the owner's own first request: it runs.
    const ownCancel = await owner.post(`/transactions/${q.transactionId}/cancel`, {}, { 'Idempotency-Key': 'shared-key' });
    expect(ownCancel.status).toBe(200);
    expect(ownCancel.body).toMatchObject({ id: q.transactionId, status: 'FAILED' });
  }, 120_000);
});

import express from 'express';
import request from 'supertest';
import { createApp } from '../../src/api/app';
import { errorHandler } from '../../src/api/middleware/errors';
import { defineRoute, mountRoute } from '../../src/api/route';
import { IdempotencyRecord } from '../../src/db/IdempotencyRecord';
import { CLAIM_RENEWAL_MS, STALE_CLAIM_MS } from '../../src/api/idempotency';
import { LedgerAccount } from '../../src/contexts/ledger/entities';
import { Quote, Transaction } from '../../src/contexts/payments/entities';
import { pruneIdempotencyRecords } from '../../src/services/idempotency-retention';
import { openOrm } from '../../src/db/orm';
import { eurAccount } from '../support/external-account-fixtures';
import { BASE, Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

async function fundable() {
  const p = await h.platform();
  const c = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `idem-${Math.random()}` });
  const accounts = await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.body.id)}&currency=USD`);
  return { ...p, accountId: accounts.body.data[0].id as string, customerId: c.body.id as string };
}

/** An app serving one test route as the given platform's caller, with the real idempotency layer. */
function appServing(route: ReturnType<typeof defineRoute>, platformId: string) {
  const app = express();
  const router = express.Router();
  router.use(express.json());
  router.use((_req, res, next) => {
    res.locals.caller = { platformId, tokenId: 'Token:test', environment: 'SANDBOX', permissions: ['VIEW', 'TRANSACT', 'MANAGE'] };
    next();
  });
  mountRoute(router, h.deps, route);
  app.use(router);
  app.use(errorHandler);
  return app;
}

const balance = async (id: string) => (await h.orm.em.fork().findOneOrFail(LedgerAccount, { id })).balance;
const transactions = (accountId: string) => h.orm.em.fork().count(Transaction, { destination: { accountId } });

describe('Idempotency-Key', () => {
  test('a repeat returns the first response without moving money again', async () => {
    const { api, accountId } = await fundable();
    const first = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 500 }, { 'Idempotency-Key': 'fund-1' });
    const second = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 500 }, { 'Idempotency-Key': 'fund-1' });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
    expect(await balance(accountId)).toBe(500n);
    expect(await transactions(accountId)).toBe(1);
  });

  test('the same key with a different request is refused and moves nothing', async () => {
    const { api, accountId } = await fundable();
    await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 500 }, { 'Idempotency-Key': 'k' }).expect(200);
    const res = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 501 }, { 'Idempotency-Key': 'k' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await balance(accountId)).toBe(500n);
  });

  test('keys are scoped per platform', async () => {
    const a = await fundable();
    const b = await fundable();
    await a.api.post(`/sandbox/internal-accounts/${a.accountId}/fund`, { amount: 100 }, { 'Idempotency-Key': 'shared' }).expect(200);
    await b.api.post(`/sandbox/internal-accounts/${b.accountId}/fund`, { amount: 200 }, { 'Idempotency-Key': 'shared' }).expect(200);
    expect(await balance(a.accountId)).toBe(100n);
    expect(await balance(b.accountId)).toBe(200n);
  });

  test('concurrent identical requests have exactly one effect and one answer', async () => {
    const { api, accountId } = await fundable();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 700 }, { 'Idempotency-Key': 'race' })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(responses.map((r) => r.text)).size).toBe(1);
    expect(await balance(accountId)).toBe(700n);
    expect(await transactions(accountId)).toBe(1);
  });

  test('replays survive a restart of the API', async () => {
    const { api, accountId, auth } = await fundable();
    const first = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 900 }, { 'Idempotency-Key': 'restart' });
    // A new process: its own ORM and app, nothing shared in memory.
    const orm = await openOrm(process.env.DATABASE_URL!, { poolMax: 2 });
    try {
      const restarted = createApp({ ...h.deps, orm });
      const again = await request(restarted)
        .post(`${BASE}/sandbox/internal-accounts/${accountId}/fund`)
        .set('Authorization', auth)
        .set('Idempotency-Key', 'restart')
        .send({ amount: 900 });
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
    } finally {
      await orm.close();
    }
    expect(await balance(accountId)).toBe(900n);
  });

  test('a 4xx outcome is stored and replayed too', async () => {
    const { api, accountId } = await fundable();
    const first = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: -1 }, { 'Idempotency-Key': 'bad' });
    const second = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: -1 }, { 'Idempotency-Key': 'bad' });
    expect(first.status).toBe(400);
    expect(second.status).toBe(400);
    expect(second.headers['idempotent-replayed']).toBe('true');
  });

  test('a refusal whose details carry amounts is stored and replayed (found by the crash campaign)', async () => {
    const { api, accountId, customerId } = await fundable();
    const bank = await api.post('/customers/external-accounts', { customerId, ...eurAccount() });
    const body = {
      source: { sourceType: 'ACCOUNT', accountId },
      destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1,
    };
    const first = await api.post('/quotes', body, { 'Idempotency-Key': 'too-small' });
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', details: { lockedAmount: 1, feesIncluded: expect.any(Number) } });
    const second = await api.post('/quotes', body, { 'Idempotency-Key': 'too-small' });
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
  });

  test('a quote whose first attempt committed and died before answering is found again, not created twice (found by the crash campaign)', async () => {
    const { api, accountId, customerId, platform } = await fundable();
    const platformId = platform.id;
    const bank = await api.post('/customers/external-accounts', { customerId, ...eurAccount() });
    const body = {
      source: { sourceType: 'ACCOUNT', accountId },
      destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5_000,
    };
    const first = await api.post('/quotes', body, { 'Idempotency-Key': 'died-after-commit' });
    expect(first.status).toBe(201);
    // As if the API had died after the quote's commit: the key is still claimed, and nothing has
    // renewed the claim for a little longer than the stale period.
    await h.orm.em
      .fork()
      .nativeUpdate(
        IdempotencyRecord,
        { platformId, key: 'died-after-commit' },
        { state: 'IN_PROGRESS', statusCode: null, responseBody: null, renewedAt: new Date(Date.now() - STALE_CLAIM_MS - 1_000) },
      );
    const retried = await api.post('/quotes', body, { 'Idempotency-Key': 'died-after-commit' });
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe(first.body.id);
    expect(retried.body.transactionId).toBe(first.body.transactionId);
    expect(await h.orm.em.fork().count(Quote, { platformId })).toBe(1);
    expect(await h.orm.em.fork().count(Transaction, { platformId })).toBe(1);
  });

  test('an execute whose answer was lost is answered as executed when retried with its key; any other request is a repeat (409)', async () => {
    const { api, accountId, customerId, platform } = await fundable();
    const platformId = platform.id;
    const bank = await api.post('/customers/external-accounts', { customerId, ...eurAccount() });
    const body = {
      source: { sourceType: 'ACCOUNT', accountId },
      destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5_000,
    };
    await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 100_000 });
    const q = await api.post('/quotes', body);
    const first = await api.post(`/quotes/${q.body.id}/execute`, undefined, { 'Idempotency-Key': 'execute-died' });
    expect(first.status).toBe(200);
    expect(first.body.id).toBe(q.body.id);
    // Executed: the payout is under way, or (on a loaded machine) already paid out by the time the quote is read back.
    expect(['PROCESSING', 'COMPLETED']).toContain(first.body.status);
    const held = await balance(accountId);
    // As if the API had died after the execution's commit, before it stored the answer.
    await h.orm.em
      .fork()
      .nativeUpdate(
        IdempotencyRecord,
        { platformId, key: 'execute-died' },
        { state: 'IN_PROGRESS', statusCode: null, responseBody: null, renewedAt: new Date(Date.now() - STALE_CLAIM_MS - 1_000) },
      );
    const retried = await api.post(`/quotes/${q.body.id}/execute`, undefined, { 'Idempotency-Key': 'execute-died' });
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.body).toMatchObject({ id: q.body.id, transactionId: q.body.transactionId });
    const other = await api.post(`/quotes/${q.body.id}/execute`, undefined, { 'Idempotency-Key': 'another-key' });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'CONFLICT', details: { transactionId: q.body.transactionId } });
    expect(await balance(accountId)).toBe(held);
    // The funding and the one payment.
    expect(await h.orm.em.fork().count(Transaction, { platformId })).toBe(2);
  });

  test('an execute whose answer the engine lost is answered from the quote: executed by this request, 200; not executed, the error stands', async () => {
    const { api, accountId, customerId } = await fundable();
    const bank = await api.post('/customers/external-accounts', { customerId, ...eurAccount() });
    const body = {
      source: { sourceType: 'ACCOUNT', accountId },
      destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5_000,
    };
    await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 100_000 });
    const workflows = h.temporal.workflow;
    const original = workflows.executeUpdateWithStart.bind(workflows);
    const losing = (runFirst: boolean) =>
      (async (...args: Parameters<typeof original>) => {
        if (runFirst) await original(...args);
        throw new Error('connection reset before the answer arrived');
      }) as typeof original;
    try {
      const unexecuted = await api.post('/quotes', body);
      workflows.executeUpdateWithStart = losing(false);
      expect((await api.post(`/quotes/${unexecuted.body.id}/execute`, undefined, { 'Idempotency-Key': 'never-sent' })).status).toBe(500);
      expect((await api.get(`/quotes/${unexecuted.body.id}`)).body.status).toBe('PENDING');

      const q = await api.post('/quotes', body);
      workflows.executeUpdateWithStart = losing(true);
      const answered = await api.post(`/quotes/${q.body.id}/execute`, undefined, { 'Idempotency-Key': 'answer-lost' });
      expect(answered.status).toBe(200);
      expect(answered.body).toMatchObject({ id: q.body.id, status: 'PROCESSING', transactionId: q.body.transactionId });
    } finally {
      workflows.executeUpdateWithStart = original;
    }
  });

  test('keys longer than 255 characters are rejected', async () => {
    const { api, accountId } = await fundable();
    const res = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 1 }, { 'Idempotency-Key': 'x'.repeat(256) });
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0]).toMatchObject({ field: 'Idempotency-Key', constraint: expect.objectContaining({ rule: 'maxLength' }) });
    expect(await balance(accountId)).toBe(0n);
  });

  test('5xx outcomes are not stored: the retry does the work', async () => {
    // The caller's platform must exist: idempotency rows reference it.
    const { platform } = await h.platform();
    let calls = 0;
    const flaky = defineRoute({
      method: 'post',
      path: '/flaky',
      operationId: 'flakyForTest',
      summary: 'test only',
      tags: ['Test'],
      idempotent: true,
      responses: { 200: { description: 'ok' } },
      handler: async () => {
        calls++;
        if (calls === 1) throw new Error('transient failure');
        return { status: 200, body: { calls } };
      },
    });
    const app = appServing(flaky, platform.id);
    const first = await request(app).post('/flaky').set('Idempotency-Key', 'five-hundred').send({});
    expect(first.status).toBe(500);
    expect(first.body.code).toBe('INTERNAL_ERROR');
    const second = await request(app).post('/flaky').set('Idempotency-Key', 'five-hundred').send({});
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ calls: 2 });
    const third = await request(app).post('/flaky').set('Idempotency-Key', 'five-hundred').send({});
    expect(third.body).toEqual({ calls: 2 });
    expect(calls).toBe(2);
  });

  test('a request that works longer than the renewal period keeps its claim: a repeat waits for its answer instead of taking over', async () => {
    const { platform } = await h.platform();
    let calls = 0;
    const slow = defineRoute({
      method: 'post',
      path: '/slow',
      operationId: 'slowForTest',
      summary: 'test only',
      tags: ['Test'],
      idempotent: true,
      responses: { 200: { description: 'ok' } },
      handler: async () => {
        calls++;
        await new Promise((r) => setTimeout(r, CLAIM_RENEWAL_MS * 1.5));
        return { status: 200, body: { calls } };
      },
    });
    const app = appServing(slow, platform.id);
    const first = request(app)
      .post('/slow')
      .set('Idempotency-Key', 'slow-1')
      .send({})
      .then((r) => r);
    await new Promise((r) => setTimeout(r, CLAIM_RENEWAL_MS * 1.25));
    const claim = await h.orm.em.fork().findOneOrFail(IdempotencyRecord, { platformId: platform.id, key: 'slow-1' });
    expect(claim.state).toBe('IN_PROGRESS');
    expect(claim.renewedAt.getTime() - claim.createdAt.getTime()).toBeGreaterThanOrEqual(CLAIM_RENEWAL_MS - 100);
    const repeat = await request(app).post('/slow').set('Idempotency-Key', 'slow-1').send({});
    expect((await first).body).toEqual({ calls: 1 });
    expect(repeat.body).toEqual({ calls: 1 });
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(calls).toBe(1);
  });

  test('completed records expire after the retention period; money still moves once', async () => {
    const { api, accountId, platform } = await fundable();
    await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 300 }, { 'Idempotency-Key': 'old' }).expect(200);
    const em = h.orm.em.fork();
    // Age the record past the retention period; a fresh one of another key stays.
    await em.nativeUpdate(IdempotencyRecord, { platformId: platform.id, key: 'old' }, { completedAt: new Date(Date.now() - 25 * 3600_000) });
    await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 1 }, { 'Idempotency-Key': 'new' }).expect(200);
    expect(await pruneIdempotencyRecords(h.orm)).toBeGreaterThanOrEqual(1);
    expect(await em.count(IdempotencyRecord, { platformId: platform.id, key: 'old' })).toBe(0);
    expect(await em.count(IdempotencyRecord, { platformId: platform.id, key: 'new' })).toBe(1);
    // A late retry of the expired key finds the finished payment workflow (same derived id):
    // it answers again without crediting twice.
    const late = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 300 }, { 'Idempotency-Key': 'old' });
    expect(late.status).toBe(200);
    expect(await balance(accountId)).toBe(301n);
    expect(await transactions(accountId)).toBe(2);
  });
});

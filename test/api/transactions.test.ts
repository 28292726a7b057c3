import request from 'supertest';
import { InternalAccount } from '../../src/contexts/ledger/entities/index';
import { Transaction, type TransactionStatus, type TransactionType } from '../../src/contexts/payments/entities/index';
import { TransactionSchema } from '../../src/contexts/payments/schemas/transaction-schemas';
import { BASE, Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Platform = Awaited<ReturnType<Harness['platform']>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Body = Record<string, any>;

async function customerWithUsdAccount(p: Platform, platformCustomerId: string) {
  const created = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId, fullName: 'Ada Lovelace' });
  expect(created.status).toBe(201);
  const account = await h.orm.em.fork().findOneOrFail(InternalAccount, { customerId: created.body.id, currency: 'USD' });
  return { customerId: created.body.id as string, account };
}

const platformUsdAccount = (p: Platform) => h.orm.em.fork().findOneOrFail(InternalAccount, { platformId: p.platform.id, customerId: null, currency: 'USD' });

describe('the transaction as the reference shows it', () => {
  test('sandbox funding is a REALTIME_FUNDING incoming payment; the webhook carries the same view as GET', async () => {
    const p = await h.platform();
    const { customerId, account } = await customerWithUsdAccount(p, 'shape-1');
    expect((await p.api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 4_200 })).status).toBe(200);

    const list = await p.api.get('/transactions');
    expect(list.body.data).toHaveLength(1);
    const tx = list.body.data[0] as Body;
    expect(tx).toEqual({
      id: expect.stringMatching(/^Transaction:/),
      status: 'COMPLETED',
      type: 'INCOMING',
      direction: 'CREDIT',
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: account.id, currency: 'USD' },
      customerId,
      platformCustomerId: 'shape-1',
      receivedAmount: { amount: 4_200, currency: { code: 'USD', name: expect.any(String), symbol: '$', decimals: 2 } },
      reconciliationInstructions: { reference: account.fundingReference },
      settledAt: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // Valid against the documented schema (the reference's required fields and source variants).
    expect(TransactionSchema.safeParse(tx).success).toBe(true);
    expect((await p.api.get(`/transactions/${tx.id}`)).body).toEqual(tx);

    await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'INCOMING_PAYMENT.COMPLETED' && x.body.data.id === tx.id));
    const hook = h.receiver.ofType('INCOMING_PAYMENT.COMPLETED').find((x) => x.body.data.id === tx.id)!;
    expect(hook.body.data).toEqual(tx);
    expect(hook.rawBody).not.toContain('SANDBOX_FUNDING');
  });

  test("a payment into the platform's own account carries the platform's id as customerId and platformCustomerId", async () => {
    const p = await h.platform();
    const account = await platformUsdAccount(p);
    expect((await p.api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 900 })).status).toBe(200);

    const [tx] = (await p.api.get('/transactions')).body.data as Body[];
    expect(tx).toMatchObject({
      customerId: p.platform.id,
      platformCustomerId: p.platform.id,
      destination: { accountId: account.id },
      source: { sourceType: 'REALTIME_FUNDING' },
    });
    expect(TransactionSchema.safeParse(tx).success).toBe(true);
    await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'INCOMING_PAYMENT.COMPLETED' && x.body.data.id === tx!.id));
    expect(h.receiver.ofType('INCOMING_PAYMENT.COMPLETED').find((x) => x.body.data.id === tx!.id)!.body.data).toMatchObject({
      customerId: p.platform.id,
      platformCustomerId: p.platform.id,
    });
  });
});

/**
 * Rows written as the payment activities write them, at chosen times, so each filter can be
 * checked against an exact expected list.
 */
async function seeded() {
  const p = await h.platform();
  const alice = await customerWithUsdAccount(p, 'alice');
  const bob = await customerWithUsdAccount(p, 'bob');
  const own = await platformUsdAccount(p);
  const em = h.orm.em.fork();
  let n = 0;
  const tx = (
    at: string,
    o: { customerId: string | null; status?: TransactionStatus; type?: TransactionType; source: Record<string, unknown>; destination: Record<string, unknown> },
  ) => {
    const outgoing = o.type === 'OUTGOING';
    n += 1;
    const id = `Transaction:00000000-0000-4000-8000-${String(n).padStart(12, '0')}-${p.platform.id.slice(-8)}`;
    em.create(Transaction, {
      id,
      platformId: p.platform.id,
      customerId: o.customerId,
      type: o.type ?? 'INCOMING',
      direction: outgoing ? 'DEBIT' : 'CREDIT',
      status: o.status ?? 'COMPLETED',
      source: o.source,
      destination: o.destination,
      receivedAmount: 100n * BigInt(n),
      receivedCurrency: 'USD',
      // An outgoing payment always records what was sent (the quote writes it).
      ...(outgoing ? { sentAmount: 100n * BigInt(n), sentCurrency: 'USD' } : {}),
      createdAt: new Date(at),
      updatedAt: new Date(at),
    });
    return id;
  };
  const sandbox = { sourceType: 'SANDBOX_FUNDING' };
  const into = (a: InternalAccount) => ({ destinationType: 'ACCOUNT', accountId: a.id });
  const t1 = tx('2030-01-01T00:00:00.000Z', { customerId: alice.customerId, source: sandbox, destination: into(alice.account) });
  const t2 = tx('2030-02-01T00:00:00.000Z', { customerId: bob.customerId, status: 'FAILED', source: sandbox, destination: into(bob.account) });
  const t3 = tx('2030-03-01T00:00:00.000Z', { customerId: null, source: sandbox, destination: into(own) });
  const t4 = tx('2030-04-01T00:00:00.000Z', {
    customerId: alice.customerId,
    source: { sourceType: 'UMA_ADDRESS', umaAddress: '$sender@other.example' },
    destination: into(alice.account),
  });
  const t5 = tx('2030-05-01T00:00:00.000Z', {
    customerId: bob.customerId,
    type: 'OUTGOING',
    status: 'PROCESSING',
    source: { sourceType: 'ACCOUNT', accountId: bob.account.id },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$friend@other.example' },
  });
  // Two rows created in the same millisecond: the id breaks the tie in both orders.
  const t6 = tx('2030-06-01T00:00:00.000Z', { customerId: alice.customerId, source: sandbox, destination: into(alice.account) });
  const t7 = tx('2030-06-01T00:00:00.000Z', { customerId: alice.customerId, source: sandbox, destination: into(alice.account) });
  await em.flush();
  const ids = async (query: string) => {
    const res = await p.api.get(`/transactions${query}`);
    expect(res.status).toBe(200);
    expect(res.body.totalCount).toBe(res.body.data.length);
    return (res.body.data as Body[]).map((t) => t.id as string);
  };
  return { p, alice, bob, own, t: { t1, t2, t3, t4, t5, t6, t7 }, ids };
}

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

describe('GET /transactions filters (every one the reference documents)', () => {
  let s: Awaited<ReturnType<typeof seeded>>;
  beforeAll(async () => {
    s = await seeded();
  });

  test('newest first by default; sortOrder=asc is oldest first; sortOrder=desc is the default order', async () => {
    const { t1, t2, t3, t4, t5, t6, t7 } = s.t;
    expect(await s.ids('')).toEqual([t7, t6, t5, t4, t3, t2, t1]);
    expect(await s.ids('?sortOrder=desc')).toEqual([t7, t6, t5, t4, t3, t2, t1]);
    expect(await s.ids('?sortOrder=asc')).toEqual([t1, t2, t3, t4, t5, t6, t7]);
  });

  test('startDate and endDate bound createdAt, both inclusive', async () => {
    const { t2, t3, t4, t6, t7 } = s.t;
    expect(await s.ids(q({ startDate: '2031-01-01T00:00:00Z' }))).toEqual([]);
    expect(await s.ids(q({ endDate: '2029-12-31T23:59:59Z' }))).toEqual([]);
    expect(await s.ids(q({ startDate: '2030-02-01T00:00:00Z', endDate: '2030-04-01T00:00:00Z' }))).toEqual([t4, t3, t2]);
    expect(await s.ids(q({ startDate: '2030-06-01T02:00:00+02:00' }))).toEqual([t7, t6]);
    expect(await s.ids(q({ startDate: '2030-02-01T00:00:00Z', endDate: '2030-04-01T00:00:00Z', sortOrder: 'asc' }))).toEqual([t2, t3, t4]);
  });

  test("customerId, and the platform's id for the platform's own transactions", async () => {
    const { t1, t2, t3, t4, t5, t6, t7 } = s.t;
    expect(await s.ids(q({ customerId: s.alice.customerId }))).toEqual([t7, t6, t4, t1]);
    expect(await s.ids(q({ customerId: s.bob.customerId }))).toEqual([t5, t2]);
    expect(await s.ids(q({ customerId: s.p.platform.id }))).toEqual([t3]);
    expect(await s.ids(q({ customerId: 'Customer:00000000-0000-4000-8000-000000000000' }))).toEqual([]);
  });

  test('platformCustomerId', async () => {
    const { t1, t2, t3, t4, t5, t6, t7 } = s.t;
    expect(await s.ids(q({ platformCustomerId: 'alice' }))).toEqual([t7, t6, t4, t1]);
    expect(await s.ids(q({ platformCustomerId: 'bob' }))).toEqual([t5, t2]);
    expect(await s.ids(q({ platformCustomerId: s.p.platform.id }))).toEqual([t3]);
    expect(await s.ids(q({ platformCustomerId: 'nobody' }))).toEqual([]);
  });

  test('status and type', async () => {
    expect(await s.ids('?status=FAILED')).toEqual([s.t.t2]);
    expect(await s.ids('?status=PROCESSING&type=OUTGOING')).toEqual([s.t.t5]);
    expect(await s.ids('?type=OUTGOING&status=COMPLETED')).toEqual([]);
    expect(await s.ids('?status=EXPIRED')).toEqual([]);
  });

  test("reference: the receiving account's funding reference, as reconciliationInstructions shows it", async () => {
    const { t1, t2, t4, t6, t7 } = s.t;
    expect(await s.ids(q({ reference: s.alice.account.fundingReference }))).toEqual([t7, t6, t4, t1]);
    expect(await s.ids(q({ reference: s.bob.account.fundingReference }))).toEqual([t2]);
    expect(await s.ids(q({ reference: 'SVC000000000000' }))).toEqual([]);
    const [first] = (await s.p.api.get(`/transactions${q({ reference: s.bob.account.fundingReference })}`)).body.data as Body[];
    expect(first!.reconciliationInstructions).toEqual({ reference: s.bob.account.fundingReference });
  });

  test('receiverAccountIdentifier: the destination account id or funding reference, or the UMA address', async () => {
    const { t1, t2, t4, t5, t6, t7 } = s.t;
    expect(await s.ids(q({ receiverAccountIdentifier: s.alice.account.id }))).toEqual([t7, t6, t4, t1]);
    expect(await s.ids(q({ receiverAccountIdentifier: s.alice.account.fundingReference }))).toEqual([t7, t6, t4, t1]);
    expect(await s.ids(q({ receiverAccountIdentifier: s.bob.account.id }))).toEqual([t2]);
    expect(await s.ids(q({ receiverAccountIdentifier: '$friend@other.example' }))).toEqual([t5]);
    expect(await s.ids(q({ receiverAccountIdentifier: '$sender@other.example' }))).toEqual([]);
  });

  test('senderAccountIdentifier: the source account id or funding reference, or the UMA address', async () => {
    const { t4, t5 } = s.t;
    expect(await s.ids(q({ senderAccountIdentifier: s.bob.account.id }))).toEqual([t5]);
    expect(await s.ids(q({ senderAccountIdentifier: s.bob.account.fundingReference }))).toEqual([t5]);
    expect(await s.ids(q({ senderAccountIdentifier: '$sender@other.example' }))).toEqual([t4]);
    expect(await s.ids(q({ senderAccountIdentifier: s.alice.account.id }))).toEqual([]);
  });

  test('accountIdentifier matches either side', async () => {
    const { t2, t3, t4, t5 } = s.t;
    expect(await s.ids(q({ accountIdentifier: s.bob.account.id }))).toEqual([t5, t2]);
    expect(await s.ids(q({ accountIdentifier: s.bob.account.fundingReference }))).toEqual([t5, t2]);
    expect(await s.ids(q({ accountIdentifier: '$sender@other.example' }))).toEqual([t4]);
    expect(await s.ids(q({ accountIdentifier: s.own.id }))).toEqual([t3]);
    expect(await s.ids(q({ accountIdentifier: 'nothing-like-it' }))).toEqual([]);
  });

  test('filters combine (AND) and totalCount counts the matches, not the page', async () => {
    const { t1, t4, t6 } = s.t;
    expect(await s.ids(q({ customerId: s.bob.customerId, status: 'FAILED' }))).toEqual([s.t.t2]);
    expect(await s.ids(q({ platformCustomerId: 'alice', endDate: '2030-05-31T00:00:00Z', sortOrder: 'asc' }))).toEqual([t1, t4]);
    const page = await s.p.api.get(`/transactions${q({ customerId: s.alice.customerId, limit: '1' })}`);
    expect(page.body).toMatchObject({ totalCount: 4, hasMore: true, data: [{ id: s.t.t7 }] });
    expect(await s.ids(q({ receiverAccountIdentifier: s.alice.account.id, startDate: '2030-06-01T00:00:00Z', endDate: '2030-06-01T00:00:00Z' }))).toEqual([
      s.t.t7,
      t6,
    ]);
  });

  test.each(['desc', 'asc'] as const)('keyset pages in %s order return every row once, in order', async (sortOrder) => {
    const all = await s.ids(`?sortOrder=${sortOrder}`);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages += 1) {
      const res = await s.p.api.get(`/transactions${q({ sortOrder, limit: '2', ...(cursor ? { cursor } : {}) })}`);
      expect(res.status).toBe(200);
      expect(res.body.totalCount).toBe(7);
      seen.push(...(res.body.data as Body[]).map((t) => t.id as string));
      cursor = res.body.nextCursor;
      if (!res.body.hasMore) break;
    }
    expect(seen).toEqual(all);
    expect(cursor).toBeUndefined();
  });

  test('filtered pages walk only the matches, in both orders', async () => {
    for (const sortOrder of ['asc', 'desc'] as const) {
      const first = await s.p.api.get(`/transactions${q({ platformCustomerId: 'alice', sortOrder, limit: '3' })}`);
      const second = await s.p.api.get(`/transactions${q({ platformCustomerId: 'alice', sortOrder, limit: '3', cursor: first.body.nextCursor })}`);
      const walked = [...first.body.data, ...second.body.data].map((t: Body) => t.id);
      expect(walked).toEqual(await s.ids(q({ platformCustomerId: 'alice', sortOrder })));
      expect(second.body.hasMore).toBe(false);
    }
  });

  test('a cursor of one order is refused with the other order', async () => {
    const desc = await s.p.api.get('/transactions?limit=2');
    const res = await s.p.api.get(`/transactions${q({ sortOrder: 'asc', limit: '2', cursor: desc.body.nextCursor })}`);
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'cursor', constraint: expect.objectContaining({ rule: 'format' }) })]);
  });

  test('invalid filters are all reported at once', async () => {
    const res = await s.p.api.get('/transactions?sortOrder=up&startDate=yesterday&endDate=2030-13-01&status=DONE&type=CARD&limit=0');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect((res.body.details.errors as Body[]).map((e) => `${e.field}:${e.constraint.rule}`).sort()).toEqual([
      'endDate:datetime',
      'limit:minimum',
      'sortOrder:enum',
      'startDate:datetime',
      'status:enum',
      'type:enum',
    ]);
    const inverted = await s.p.api.get(`/transactions${q({ startDate: '2030-03-01T00:00:00Z', endDate: '2030-02-01T00:00:00Z' })}`);
    expect(inverted.status).toBe(400);
    expect(inverted.body.details.errors).toEqual([expect.objectContaining({ field: 'endDate', constraint: expect.objectContaining({ rule: 'range' }) })]);
  });

  test("another platform's customers, accounts and references match nothing", async () => {
    const other = await h.platform();
    const filters: Record<string, string>[] = [
      { customerId: s.alice.customerId },
      { platformCustomerId: 'alice' },
      { reference: s.alice.account.fundingReference },
      { accountIdentifier: s.alice.account.id },
      { receiverAccountIdentifier: s.alice.account.fundingReference },
    ];
    for (const params of filters) {
      const res = await other.api.get(`/transactions${q(params)}`);
      expect({ params, data: res.body.data, totalCount: res.body.totalCount }).toEqual({ params, data: [], totalCount: 0 });
    }
  });
});

test('the OpenAPI document declares every filter of the reference for GET /transactions', async () => {
  const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body;
  const params = (doc.paths['/transactions'].get.parameters as Body[]).filter((x) => x.in === 'query');
  expect(params.map((x) => x.name).sort()).toEqual(
    [
      'customerId',
      'platformCustomerId',
      'accountIdentifier',
      'senderAccountIdentifier',
      'receiverAccountIdentifier',
      'status',
      'type',
      'reference',
      'startDate',
      'endDate',
      'limit',
      'cursor',
      'sortOrder',
    ].sort(),
  );
  expect(params.find((x) => x.name === 'sortOrder')!.schema).toMatchObject({ enum: ['asc', 'desc'], default: 'desc' });
  expect(params.find((x) => x.name === 'startDate')!.schema).toMatchObject({ format: 'date-time' });
});

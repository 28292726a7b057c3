import request from 'supertest';
import { ApiToken } from '../../src/contexts/platforms/entities';
import { BASE, Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Platform = Awaited<ReturnType<Harness['platform']>>;
const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
const rawGet = (auth: string, path: string) => request(h.app).get(`${BASE}${path}`).set('Authorization', auth);
const tokenRows = (platformId: string) => h.orm.em.fork().count(ApiToken, { platformId });

async function mint(p: Platform, name: string, permissions: string[]) {
  const res = await p.api.post('/tokens', { name, permissions });
  expect(res.status).toBe(201);
  return res.body as { id: string; clientId: string; clientSecret: string; permissions: string[] };
}

describe('POST /tokens', () => {
  test('returns the secret once; only a hash is stored; both the id and the clientId authenticate', async () => {
    const p = await h.platform();
    const res = await p.api.post('/tokens', { name: 'reporting', permissions: ['VIEW'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'reporting', permissions: ['VIEW'], environment: 'SANDBOX' });
    expect(res.body.id).toMatch(/^Token:[0-9a-f-]{36}$/);
    expect(res.body.clientId).toBe(res.body.id.slice('Token:'.length));
    const secret = res.body.clientSecret as string;
    expect(secret.length).toBeGreaterThanOrEqual(32);

    const row = await h.orm.em.fork().findOneOrFail(ApiToken, { id: res.body.id });
    expect(row.secretHash).not.toContain(secret);
    expect(row.platformId).toBe(p.platform.id);

    expect((await rawGet(basic(res.body.id, secret), '/config')).status).toBe(200);
    expect((await rawGet(basic(res.body.clientId, secret), '/config')).status).toBe(200);
    expect((await rawGet(basic(res.body.clientId, `${secret}x`), '/config')).status).toBe(401);

    const read = await p.api.get(`/tokens/${res.body.id}`).expect(200);
    expect(read.body).not.toHaveProperty('clientSecret');
    expect(JSON.stringify(read.body)).not.toContain(secret);
    const list = await p.api.get('/tokens').expect(200);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(JSON.stringify(list.body)).not.toContain(row.secretHash);
  });

  test('invalid input lists every invalid field and stores nothing', async () => {
    const p = await h.platform();
    const before = await tokenRows(p.platform.id);
    const res = await p.api.post('/tokens', { name: '', permissions: ['VIEW', 'ADMIN'], extra: 1 }).expect(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    const fields = (res.body.details.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(expect.arrayContaining(['name', 'permissions.1']));
    expect(fields).toHaveLength(3);
    await p.api.post('/tokens', {}).expect(400);
    const none = await p.api.post('/tokens', { name: 'x', permissions: [] }).expect(400);
    expect(none.body.details.errors[0].field).toBe('permissions');
    expect(await tokenRows(p.platform.id)).toBe(before);
  });

  test('a token cannot grant what it does not hold; a production token mints production tokens', async () => {
    const p = await h.platform();
    const manager = await mint(p, 'manager', ['VIEW', 'MANAGE']);
    const res = await request(h.app)
      .post(`${BASE}/tokens`)
      .set('Authorization', basic(manager.id, manager.clientSecret))
      .send({ name: 'payer', permissions: ['TRANSACT'] });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    const ok = await request(h.app)
      .post(`${BASE}/tokens`)
      .set('Authorization', basic(manager.id, manager.clientSecret))
      .send({ name: 'reader', permissions: ['VIEW'] });
    expect(ok.status).toBe(201);

    const prod = await h.platform({ environment: 'PRODUCTION' });
    expect((await prod.api.post('/tokens', { name: 'p', permissions: ['VIEW'] }).expect(201)).body.environment).toBe('PRODUCTION');
  });
});

describe('POST /tokens with an Idempotency-Key', () => {
  test('a repeat answers the first token, secret included, and mints no second one; the stored answer is sealed', async () => {
    const p = await h.platform();
    const before = await tokenRows(p.platform.id);
    const first = await p.api.post('/tokens', { name: 'ci', permissions: ['VIEW'] }, { 'Idempotency-Key': 'token-once' });
    expect(first.status).toBe(201);
    const again = await p.api.post('/tokens', { name: 'ci', permissions: ['VIEW'] }, { 'Idempotency-Key': 'token-once' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await tokenRows(p.platform.id)).toBe(before + 1);
    expect((await rawGet(basic(first.body.id, first.body.clientSecret), '/config')).status).toBe(200);
    // The stored answer holds the secret: never in plain text.
    const [record] = await h.orm.em
      .getConnection()
      .execute<{ response_body: string }[]>('select response_body from idempotency_keys where platform_id = ? and key = ?', [p.platform.id, 'token-once']);
    expect(record!.response_body).not.toContain(first.body.clientSecret);
    expect(record!.response_body).not.toContain(first.body.id);
    // Another request under the same key is refused.
    const reused = await request(h.app)
      .post(`${BASE}/tokens`)
      .set('Authorization', p.auth)
      .set('Idempotency-Key', 'token-once')
      .send({ name: 'other', permissions: ['VIEW'] });
    expect(reused.status).toBe(409);
  });

  test("the replay is the asking token's only: another token of the platform with the same key and body gets no secret", async () => {
    const p = await h.platform();
    const manager = await mint(p, 'manager', ['MANAGE']);
    const body = { name: 'payouts', permissions: ['VIEW', 'TRANSACT'] };
    const first = await p.api.post('/tokens', body, { 'Idempotency-Key': 'payouts-token' });
    expect(first.status).toBe(201);
    const before = await tokenRows(p.platform.id);
    // The name and permissions are readable from GET /tokens; the key may leak from logs.
    const replayed = await request(h.app)
      .post(`${BASE}/tokens`)
      .set('Authorization', basic(manager.id, manager.clientSecret))
      .set('Idempotency-Key', 'payouts-token')
      .send(body);
    expect(replayed.status).toBe(409);
    expect(replayed.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(JSON.stringify(replayed.body)).not.toContain(first.body.clientSecret);
    expect(await tokenRows(p.platform.id)).toBe(before);
  });
});

describe('permissions are enforced', () => {
  test('each operation declares its permission in the OpenAPI document: TRANSACT exactly on the money routes, VIEW on reads and the fee estimate, MANAGE on every other write', async () => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body as {
      paths: Record<string, Record<string, { 'x-permission'?: string; security?: unknown[] }>>;
    };
    // Operations with a security of their own take no API token (an agent's bearer token, or none): no token permission applies.
    const declared = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => !op.security)
        .map(([method, op]) => ({ op: `${method} ${path}`, permission: op['x-permission'] })),
    );
    expect(
      declared
        .filter((d) => d.permission === 'TRANSACT')
        .map((d) => d.op)
        .sort(),
    ).toEqual(
      [
        'post /quotes',
        'post /quotes/{quoteId}/execute',
        // The customer's SCA proof releases a held payment: the same permission as executing it.
        'post /quotes/{quoteId}/authorize',
        'post /quotes/{quoteId}/authorize/resend',
        'post /transfer-out',
        'post /transfer-in',
        'post /transactions/{transactionId}/confirm',
        'post /transactions/{transactionId}/reject',
        'post /transactions/{transactionId}/approve',
        'post /transactions/{transactionId}/cancel',
        'post /sandbox/send',
        'post /sandbox/uma/receive',
        'post /sandbox/internal-accounts/{accountId}/fund',
        'post /stablecoins/{stablecoinId}/mints',
        'post /stablecoins/{stablecoinId}/burns',
        'post /sandbox/stablecoin-operations/{stablecoinOperationId}/fund',
        ...[
          'authorization',
          'clearing',
          'return',
          'balance_inquiry',
          'credit_authorization',
          'financial_authorization',
          'financial_credit_authorization',
          'authorization_advice',
          'credit_authorization_advice',
          'return_reversal',
        ].map((event) => `post /sandbox/cards/{cardId}/simulate/${event}`),
      ].sort(),
    );
    for (const { op, permission } of declared) {
      if (op.startsWith('get ') || op === 'post /crypto/estimate-withdrawal-fee') expect([op, permission]).toEqual([op, 'VIEW']);
      else if (permission !== 'TRANSACT') expect([op, permission]).toEqual([op, 'MANAGE']);
    }
  });

  test('VIEW reads but cannot write; TRANSACT is needed for quotes; MANAGE for config, tokens and customers', async () => {
    const p = await h.platform();
    const viewer = await mint(p, 'viewer', ['VIEW']);
    const v = basic(viewer.id, viewer.clientSecret);
    expect((await rawGet(v, '/config')).status).toBe(200);
    expect((await rawGet(v, '/tokens')).status).toBe(200);
    const writes: [string, string, unknown][] = [
      ['patch', '/config', { umaDomain: 'viewer.example' }],
      ['post', '/tokens', { name: 'x', permissions: ['VIEW'] }],
      ['post', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'v-1', fullName: 'Vi Ewer' }],
      ['post', '/quotes', { lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100 }],
      ['delete', `/tokens/${viewer.id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await request(h.app)
        [method as 'post'](`${BASE}${path}`)
        .set('Authorization', v)
        .send(body as object);
      expect([method, path, res.status, res.body.code]).toEqual([method, path, 403, 'FORBIDDEN']);
    }
    expect((await p.api.get('/config')).body.umaDomain).toBeUndefined();

    const manager = await mint(p, 'manager', ['VIEW', 'MANAGE']);
    const m = basic(manager.id, manager.clientSecret);
    const quote = await request(h.app).post(`${BASE}/quotes`).set('Authorization', m).send({});
    expect([quote.status, quote.body.code]).toEqual([403, 'FORBIDDEN']);
    const execute = await request(h.app).post(`${BASE}/quotes/Quote:00000000-0000-4000-8000-000000000000/execute`).set('Authorization', m);
    expect([execute.status, execute.body.code]).toEqual([403, 'FORBIDDEN']);
    const customer = await request(h.app)
      .post(`${BASE}/customers`)
      .set('Authorization', m)
      .send({ customerType: 'INDIVIDUAL', platformCustomerId: 'm-1', fullName: 'Man Ager' });
    expect(customer.status).toBe(201);
    // The card network simulators move money like the other sandbox payment simulators.
    const simulated = await request(h.app)
      .post(`${BASE}/sandbox/cards/Card:00000000-0000-4000-8000-000000000000/simulate/authorization`)
      .set('Authorization', m)
      .send({});
    expect([simulated.status, simulated.body.code]).toEqual([403, 'FORBIDDEN']);

    const payer = await mint(p, 'payer', ['VIEW', 'TRANSACT']);
    const t = basic(payer.id, payer.clientSecret);
    // Past the permission check: the body is judged (and found wanting).
    expect((await request(h.app).post(`${BASE}/quotes`).set('Authorization', t).send({})).status).toBe(400);
    expect(
      (await request(h.app).post(`${BASE}/sandbox/cards/Card:00000000-0000-4000-8000-000000000000/simulate/authorization`).set('Authorization', t).send({}))
        .status,
    ).toBe(400);
    expect((await request(h.app).patch(`${BASE}/config`).set('Authorization', t).send({ umaDomain: 'payer.example' })).status).toBe(403);
  });
});

describe('GET /tokens', () => {
  test('cursor pages, filters by name and inclusive dates, refuses unknown parameters', async () => {
    const p = await h.platform();
    for (const name of ['alpha', 'beta', 'beta']) await mint(p, name, ['VIEW']);
    const all = await p.api.get('/tokens').expect(200);
    expect(all.body.totalCount).toBe(4);
    expect(all.body.hasMore).toBe(false);

    const first = await p.api.get('/tokens?limit=3').expect(200);
    expect(first.body.data).toHaveLength(3);
    expect(first.body.hasMore).toBe(true);
    const second = await p.api.get(`/tokens?limit=3&cursor=${encodeURIComponent(first.body.nextCursor)}`).expect(200);
    expect(second.body.data).toHaveLength(1);
    const ids = [...first.body.data, ...second.body.data].map((t: { id: string }) => t.id);
    expect(new Set(ids).size).toBe(4);

    const betas = await p.api.get('/tokens?name=beta').expect(200);
    expect(betas.body.data.map((t: { name: string }) => t.name)).toEqual(['beta', 'beta']);

    const newest = all.body.data[0] as { createdAt: string; updatedAt: string };
    const oldest = all.body.data[3] as { createdAt: string };
    expect((await p.api.get(`/tokens?createdAfter=${encodeURIComponent(newest.createdAt)}`)).body.totalCount).toBe(1);
    expect((await p.api.get(`/tokens?createdBefore=${encodeURIComponent(oldest.createdAt)}`)).body.totalCount).toBe(1);
    expect(
      (await p.api.get(`/tokens?updatedAfter=${encodeURIComponent(newest.updatedAt)}&updatedBefore=${encodeURIComponent(newest.updatedAt)}`)).body.totalCount,
    ).toBe(1);
    expect((await p.api.get('/tokens?updatedAfter=2999-01-01T00:00:00Z')).body.totalCount).toBe(0);

    // Unknown parameters are refused before the known ones are judged (as on every list).
    const unknown = await p.api.get('/tokens?owner=me').expect(400);
    expect(unknown.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['owner']);
    const bad = await p.api.get('/tokens?createdAfter=yesterday&limit=0').expect(400);
    expect((bad.body.details.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['createdAfter', 'limit']);
  });
});

describe('DELETE /tokens/{id}', () => {
  test('revokes at once, even for a pair this process verified a moment ago', async () => {
    const p = await h.platform();
    const other = await mint(p, 'short-lived', ['VIEW']);
    const auth = basic(other.id, other.clientSecret);
    expect((await rawGet(auth, '/config')).status).toBe(200);
    expect((await rawGet(auth, '/config')).status).toBe(200);
    await p.api.delete(`/tokens/${other.id}`).expect(204);
    const after = await rawGet(auth, '/config');
    expect([after.status, after.body.code]).toEqual([401, 'UNAUTHORIZED']);
    expect((await rawGet(basic(other.clientId, other.clientSecret), '/config')).status).toBe(401);
    const gone = await p.api.get(`/tokens/${other.id}`).expect(404);
    expect(gone.body.code).toBe('TOKEN_NOT_FOUND');
    expect((await p.api.delete(`/tokens/${other.id}`)).status).toBe(404);
  });

  test("a token may delete itself, but not the platform's last one", async () => {
    const p = await h.platform();
    const last = await p.api.delete(`/tokens/${p.token.tokenId}`).expect(400);
    expect(last.body.details.errors[0]).toMatchObject({ field: 'tokenId', constraint: { rule: 'lastToken' } });
    expect(await tokenRows(p.platform.id)).toBe(1);

    const spare = await mint(p, 'spare', ['VIEW', 'MANAGE']);
    await p.api.delete(`/tokens/${p.token.tokenId}`).expect(204);
    expect((await rawGet(p.auth, '/config')).status).toBe(401);
    const s = basic(spare.id, spare.clientSecret);
    const self = await request(h.app).delete(`${BASE}/tokens/${spare.id}`).set('Authorization', s);
    expect(self.status).toBe(400);
    expect((await rawGet(s, '/tokens')).body.totalCount).toBe(1);
  });

  test('two tokens deleting each other at once leave the platform one', async () => {
    const p = await h.platform();
    const a = await mint(p, 'a', ['VIEW', 'MANAGE']);
    await p.api.delete(`/tokens/${p.token.tokenId}`).expect(204);
    const b = (
      await request(h.app)
        .post(`${BASE}/tokens`)
        .set('Authorization', basic(a.id, a.clientSecret))
        .send({ name: 'b', permissions: ['VIEW', 'MANAGE'] })
        .expect(201)
    ).body as { id: string; clientSecret: string };
    const [ra, rb] = await Promise.all([
      request(h.app).delete(`${BASE}/tokens/${b.id}`).set('Authorization', basic(a.id, a.clientSecret)),
      request(h.app).delete(`${BASE}/tokens/${a.id}`).set('Authorization', basic(b.id, b.clientSecret)),
    ]);
    expect([ra.status, rb.status].filter((s) => s === 204)).toHaveLength(1);
    expect(await tokenRows(p.platform.id)).toBe(1);
  });
});

describe('tenant isolation', () => {
  test("another platform's token ids are 404 TOKEN_NOT_FOUND and nothing changes", async () => {
    const a = await h.platform();
    const b = await h.platform();
    const target = await mint(a, 'target', ['VIEW']);
    for (const res of [await b.api.get(`/tokens/${target.id}`), await b.api.delete(`/tokens/${target.id}`)]) {
      expect([res.status, res.body.code]).toEqual([404, 'TOKEN_NOT_FOUND']);
    }
    const listed = await b.api.get('/tokens').expect(200);
    expect(listed.body.data.map((t: { id: string }) => t.id)).toEqual([b.token.tokenId]);
    expect(await tokenRows(a.platform.id)).toBe(2);
    expect((await rawGet(basic(target.id, target.clientSecret), '/config')).status).toBe(200);
  });
});

import request from 'supertest';
import { BASE, Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

describe('authentication (spec §5.1)', () => {
  test.each([
    ['no Authorization header', undefined],
    ['a Bearer token', 'Bearer abc'],
    ['malformed Basic value', 'Basic %%%'],
    ['unknown token id', basic('Token:00000000-0000-4000-8000-000000000000', 'sk_x')],
    ['no colon', `Basic ${Buffer.from('Token:nocolonsecret').toString('base64').replace(/=+$/, '')}`],
  ])('%s is 401 UNAUTHORIZED', async (_name, header) => {
    const req = request(h.app).get(`${BASE}/config`);
    const res = await (header ? req.set('Authorization', header) : req);
    expect(res.status).toBe(401);
    // Both: spec §7 names the text `reason`, the reference's Error401 requires `message`.
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', reason: expect.any(String), message: expect.any(String), status: 401 });
  });

  test('a wrong secret for a real token is 401', async () => {
    const { token } = await h.platform();
    const res = await request(h.app)
      .get(`${BASE}/config`)
      .set('Authorization', basic(token.tokenId, `${token.clientSecret}x`));
    expect(res.status).toBe(401);
  });

  test('the right credentials work, and the secret is stored only as a hash', async () => {
    const { token, api } = await h.platform();
    expect((await api.get('/config')).status).toBe(200);
    const rows = await h.orm.em.getConnection().execute<{ secret_hash: string }[]>('select secret_hash from api_tokens where id = ?', [token.tokenId]);
    expect(rows[0]!.secret_hash).toMatch(/^hmac-sha256\$/);
    expect(rows[0]!.secret_hash).not.toContain(token.clientSecret);
  });
});

describe('JSON everywhere', () => {
  test('unknown routes are JSON 404', async () => {
    const { api } = await h.platform();
    const res = await api.get('/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body.code).toBe('NOT_FOUND');
  });

  test('a known path with the wrong method is JSON 405 with Allow', async () => {
    const { api } = await h.platform();
    const res = await api.delete('/config');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, PATCH');
    expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
  });

  test('every response carries a request id', async () => {
    const res = await request(h.app).get(`${BASE}/config`);
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    const echoed = await request(h.app).get(`${BASE}/config`).set('X-Request-Id', 'trace-123');
    expect(echoed.headers['x-request-id']).toBe('trace-123');
  });

  test('the OpenAPI document and reference page are served from the zod schemas', async () => {
    const doc = await request(h.app).get(`${BASE}/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const fund = doc.body.paths['/sandbox/internal-accounts/{accountId}/fund'].post;
    expect(fund.operationId).toBe('sandboxFundInternalAccount');
    expect(fund.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/SandboxFundRequest');
    expect(doc.body.components.schemas.SandboxFundRequest.properties.amount).toMatchObject({ type: 'integer', maximum: 100000000000 });
    expect(doc.body.components.schemas.Error.required).toEqual(expect.arrayContaining(['code', 'reason']));
    const page = await request(h.app).get(`${BASE}/reference`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('openapi.json');
  });

  test('creations link to the operations their answer feeds (for stateful clients and fuzzing)', async () => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body;
    const linksOf = (path: string, status: string) => doc.paths[path].post.responses[status].links ?? {};
    expect(linksOf('/customers', '201').getCustomerById).toEqual({ operationId: 'getCustomerById', parameters: { customerId: '$response.body#/id' } });
    const quote = linksOf('/quotes', '201');
    expect(quote.executeQuote).toEqual({ operationId: 'executeQuote', parameters: { quoteId: '$response.body#/id' } });
    expect(quote.getTransactionById).toEqual({ operationId: 'getTransactionById', parameters: { transactionId: '$response.body#/transactionId' } });
    // Every link names an operation of the document and a parameter of its path.
    const operations = new Map<string, string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { operationId?: string }>>))
      for (const op of Object.values(item)) if (op.operationId) operations.set(op.operationId, path);
    let links = 0;
    for (const item of Object.values(
      doc.paths as Record<
        string,
        Record<string, { responses?: Record<string, { links?: Record<string, { operationId: string; parameters: Record<string, string> }> }> }>
      >,
    )) {
      for (const op of Object.values(item)) {
        for (const response of Object.values(op.responses ?? {})) {
          for (const link of Object.values(response.links ?? {})) {
            links++;
            const path = operations.get(link.operationId);
            expect(path).toBeDefined();
            for (const name of Object.keys(link.parameters)) expect(path).toContain(`{${name}}`);
          }
        }
      }
    }
    expect(links).toBeGreaterThan(20);
  });
});

describe('validation reports every invalid field at once', () => {
  test('POST /customers', async () => {
    const { api } = await h.platform();
    const res = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: '',
      email: 'not-an-email',
      phoneNumber: '0123',
      fullName: 'x'.repeat(251),
      birthDate: '1990-13-45',
      nationality: 'usa',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    const fields = res.body.details.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['birthDate', 'email', 'fullName', 'nationality', 'phoneNumber', 'platformCustomerId']);
    const byField = Object.fromEntries(res.body.details.errors.map((e: { field: string; constraint: { rule: string } }) => [e.field, e.constraint.rule]));
    expect(byField.fullName).toBe('maxLength');
    expect(byField.phoneNumber).toBe('pattern');
  });
});

describe('lists', () => {
  test('cursor pagination walks every item once, newest first, with totalCount', async () => {
    const { api } = await h.platform();
    for (let i = 0; i < 3; i++) await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `p-${i}` }).expect(201);
    // Three customers with USD and EUR each: six accounts.
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await api.get(`/customers/internal-accounts?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.totalCount).toBe(6);
      seen.push(...res.body.data.map((a: { id: string }) => a.id));
      expect(res.body.hasMore).toBe(res.body.nextCursor !== undefined);
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(new Set(seen).size).toBe(6);
  });

  test.each([['0'], ['101'], ['abc']])('limit=%s is rejected', async (limit) => {
    const { api } = await h.platform();
    const res = await api.get(`/customers/internal-accounts?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0].field).toBe('limit');
  });

  // The query parameters the public reference documents for each list (GET /transactions has its
  // own test in transactions.test.ts). Every one must be declared, so it is validated and documented.
  test.each([
    [
      '/customers',
      [
        'platformCustomerId',
        'customerType',
        'createdAfter',
        'createdBefore',
        'updatedAfter',
        'updatedBefore',
        'region',
        'currency',
        'umaAddress',
        'isIncludingDeleted',
        'limit',
        'cursor',
      ],
      [],
    ],
    ['/customers/internal-accounts', ['currency', 'customerId', 'type', 'limit', 'cursor'], []],
    ['/platform/internal-accounts', ['currency', 'type'], []],
    ['/verifications', ['customerId', 'verificationStatus', 'limit', 'cursor'], []],
    ['/beneficial-owners', ['customerId', 'limit', 'cursor'], ['customerId']],
    ['/documents', ['documentHolder', 'limit', 'cursor'], []],
  ])('GET %s declares the filters of the reference', async (path, names, required) => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body;
    const params = (doc.paths[path].get.parameters as { in: string; name: string; required?: boolean }[]).filter((p) => p.in === 'query');
    expect(params.map((p) => p.name).sort()).toEqual([...names].sort());
    expect(params.filter((p) => p.required).map((p) => p.name)).toEqual(required);
  });

  test('a forged cursor is rejected', async () => {
    const { api } = await h.platform();
    const res = await api.get('/customers/internal-accounts?cursor=garbage');
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0].field).toBe('cursor');
  });
});

describe('platform isolation', () => {
  test("another platform's customer, accounts and transactions are invisible", async () => {
    const owner = await h.platform();
    const other = await h.platform();
    const customer = await owner.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'mine' });
    const accounts = await owner.api.get('/customers/internal-accounts');
    const accountId = accounts.body.data[0].id;
    const funded = await owner.api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 10 });
    expect(funded.status).toBe(200);
    const txs = await owner.api.get('/transactions');
    const txId = txs.body.data[0].id;

    expect((await other.api.get(`/customers/${customer.body.id}`)).status).toBe(404);
    expect((await other.api.get(`/transactions/${txId}`)).status).toBe(404);
    expect((await other.api.get('/customers/internal-accounts')).body.totalCount).toBe(0);
    expect((await other.api.get('/transactions')).body.totalCount).toBe(0);
    expect((await other.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}`)).body.data).toEqual([]);
  });

  test('platformCustomerId is unique per platform: 409 CONFLICT, even under concurrency', async () => {
    const { api } = await h.platform();
    const [a, b] = await Promise.all([
      api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'dup' }),
      api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'dup' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.code).toBe('CONFLICT');
    // The same id on another platform is fine.
    const other = await h.platform();
    expect((await other.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'dup' })).status).toBe(201);
  });
});

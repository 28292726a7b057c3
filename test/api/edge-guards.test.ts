import { existsSync, readFileSync } from 'node:fs';
import request from 'supertest';
import { parse } from 'yaml';
import { credentialKindOf } from '../../src/api/credential-zones';
import { registeredRoutes } from '../../src/api/route';
import { BASE, Harness } from '../support/harness';
import { REFERENCE_YAML } from '../support/reference-document';

// Findings of the first outside run: NUL characters answered 500, unknown query parameters were
// ignored, literal paths of the reference were captured by our parameter routes, undocumented
// statuses, Basic user names with a colon, a generic 404 code.

let h: Harness;
let api: Awaited<ReturnType<Harness['platform']>>['api'];
let token: Awaited<ReturnType<Harness['platform']>>['token'];
/** An agent's bearer token: the credential of /agents/me routes (the device-code redemption takes none). */
let agentAuth: string;
/** The credentials a route takes, by its method and path. */
const authFor = (method: string, path: string) => ({ platform: api.auth, agent: agentAuth, 'device-code': '' })[credentialKindOf(method, path)];
beforeAll(async () => {
  h = await Harness.start();
  ({ api, token } = await h.platform());
  const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'edges', fullName: 'Eddie Edge' });
  const policy = {
    // Every permission: an operation the agent may not use is 403 before its input is read.
    permissions: ['VIEW_TRANSACTIONS', 'MANAGE_EXTERNAL_ACCOUNTS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS'],
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 0 },
  };
  const agent = await api.post('/agents', { name: 'edges', customerId: customer.body.id, policy });
  agentAuth = `Bearer ${(await request(h.app).post(`${BASE}/agents/device-codes/${agent.body.deviceCode.code}/redeem`)).body.accessToken}`;
});
afterAll(async () => {
  await h.stop();
});

const referenceFile = REFERENCE_YAML;

describe('NUL characters are refused at the edge as 400 INVALID_INPUT naming the field', () => {
  test.each([
    ['POST', '/verifications', { customerId: 'a\u0000b' }, 'customerId'],
    ['GET', '/customers?platformCustomerId=%00', undefined, 'platformCustomerId'],
    ['GET', '/customers/a%00b', undefined, 'customerId'],
    ['GET', '/transactions?customerId=%00', undefined, 'customerId'],
    ['POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'x', address: { line1: 'a\u0000' } }, 'address.line1'],
  ])('%s %s', async (method, path, body, field) => {
    const res = method === 'GET' ? await api.get(path) : await api.post(path, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect(res.body.details.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  test('on every registered route, in a path parameter, a query parameter and the body, never a 500', async () => {
    for (const route of registeredRoutes) {
      const path = route.path.replace(/:[A-Za-z]+/g, 'Thing:a%00b');
      const res = await request(h.app)
        [route.method](`${BASE}${path}?limit=%00`)
        .set('Authorization', authFor(route.method, route.path))
        .send({ customerId: 'x\u0000' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_INPUT');
    }
  });
});

describe('unknown query parameters are refused, never ignored', () => {
  test('a list endpoint names every unknown parameter', async () => {
    const res = await api.get('/customers?limit=5&colour=blue&sortBy=name');
    expect(res.status).toBe(400);
    expect(res.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['colour', 'sortBy']);
  });

  test('an endpoint without query parameters refuses any', async () => {
    const res = await api.get('/config?verbose=1');
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'verbose' })]);
  });
});

describe('literal paths always win over parameters', () => {
  test('/customers/external-accounts is not read as /customers/{customerId}', async () => {
    const get = await api.get('/customers/external-accounts');
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({ data: [], hasMore: false });
    // The external-account schema answers, not the customer lookup (which would be 404).
    const post = await api.post('/customers/external-accounts', {});
    expect(post.status).toBe(400);
    expect((post.body.details.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['accountInfo', 'currency', 'customerId']);
  });

  test('no literal path of the public reference is shadowed by one of our parameter routes', async () => {
    if (!existsSync(referenceFile)) throw new Error(`the public reference is expected at ${referenceFile}`);
    const reference = parse(readFileSync(referenceFile, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const ours = new Set(registeredRoutes.map((r) => `${r.method} ${r.path.replace(/:([A-Za-z]+)/g, '{$1}')}`));
    const shadowed: string[] = [];
    for (const [path, operations] of Object.entries(reference.paths)) {
      for (const method of Object.keys(operations).filter((m) => ['get', 'post', 'patch', 'put', 'delete'].includes(m))) {
        const key = `${method} ${path.replace(/\{[^}]+\}/g, (p) => p)}`;
        if ([...ours].some((o) => o.toLowerCase().replace(/\{[^}]+\}/g, '{}') === key.toLowerCase().replace(/\{[^}]+\}/g, '{}'))) continue; // implemented
        // Not implemented here: it must be answered as unbuilt (501 naming this very operation), not by another route.
        const concrete = path.replace(/\{[^}]+\}/g, 'Thing:00000000-0000-4000-8000-000000000000');
        const res = await request(h.app)[method as 'get'](`${BASE}${concrete}`).set('Authorization', authFor(method, path)).send({});
        const unbuilt = res.status === 501 && res.body.code === 'NOT_IMPLEMENTED' && (res.body.reason ?? '').startsWith(`${method.toUpperCase()} ${path} `);
        if (!unbuilt && res.status !== 405) shadowed.push(`${method.toUpperCase()} ${path} → ${res.status} ${res.body.code}`);
        if (res.status === 405 && !path.includes('{')) shadowed.push(`${method.toUpperCase()} ${path} → 405`);
      }
    }
    expect(shadowed).toEqual([]);
  });
});

describe('the OpenAPI document declares every status an operation can answer', () => {
  test('400, 401 and 500 everywhere; 404 with path ids; 409 where Idempotency-Key is taken; 403 on sandbox endpoints', async () => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters?: { name: string }[]; security?: unknown[] }>>;
    };
    const fund = doc.paths['/sandbox/internal-accounts/{accountId}/fund']!.post!;
    expect(Object.keys(fund.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '409', '500']));
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const op of Object.values(operations)) {
        // The device-code redemption takes no credentials: no 401 (its unknown code is a 404).
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(op.security?.length === 0 ? ['400', '404', '500'] : ['400', '401', '500']));
        if (path.includes('{')) expect(Object.keys(op.responses)).toContain('404');
        if (op.parameters?.some((p) => p.name === 'Idempotency-Key')) expect(Object.keys(op.responses)).toContain('409');
      }
    }
  });
});

describe('Basic credentials', () => {
  test('the token id is accepted with or without its Token: prefix', async () => {
    const withPrefix = `Basic ${Buffer.from(`${token.tokenId}:${token.clientSecret}`).toString('base64')}`;
    const withoutPrefix = `Basic ${Buffer.from(`${token.tokenId.replace(/^Token:/, '')}:${token.clientSecret}`).toString('base64')}`;
    expect((await request(h.app).get(`${BASE}/config`).set('Authorization', withPrefix)).status).toBe(200);
    expect((await request(h.app).get(`${BASE}/config`).set('Authorization', withoutPrefix)).status).toBe(200);
    const wrong = `Basic ${Buffer.from(`${token.tokenId.replace(/^Token:/, '')}:wrong`).toString('base64')}`;
    expect((await request(h.app).get(`${BASE}/config`).set('Authorization', wrong)).status).toBe(401);
  });
});

describe("404 codes are the reference's", () => {
  test('a customer is USER_NOT_FOUND, a transaction TRANSACTION_NOT_FOUND', async () => {
    expect((await api.get('/customers/Customer:00000000-0000-4000-8000-000000000000')).body.code).toBe('USER_NOT_FOUND');
    expect((await api.get('/transactions/Transaction:00000000-0000-4000-8000-000000000000')).body.code).toBe('TRANSACTION_NOT_FOUND');
  });
});

describe("field constraints are the reference's FieldConstraint objects", () => {
  test('lengths, allowed values and patterns come with the rule that failed', async () => {
    const res = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'x'.repeat(1000),
      phoneNumber: 'call me',
      kycStatus: 'MAYBE',
      address: { line1: 'a', city: 'b', postalCode: 'c', country: 'ZZZ' },
    });
    expect(res.status).toBe(400);
    const byField = Object.fromEntries(res.body.details.errors.map((e: { field: string; constraint: Record<string, unknown> }) => [e.field, e.constraint]));
    expect(byField.fullName).toEqual({ rule: 'maxLength', maxLength: expect.any(Number) });
    expect(byField.phoneNumber).toEqual({ rule: 'pattern', pattern: expect.any(String) });
    for (const constraint of Object.values(byField)) expect(constraint).toEqual(expect.objectContaining({ rule: expect.any(String) }));
  });

  test('an enum field lists its allowed values', async () => {
    const res = await api.get('/transactions?status=SOMEDAY');
    expect(res.body.details.errors[0].constraint).toEqual({ rule: 'enum', enum: expect.arrayContaining(['PENDING', 'COMPLETED']) });
  });
});

import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../src/api/app';
import { registeredRoutes } from '../../src/api/route';
import { credentialKindOf } from '../../src/api/credential-zones';
import { UNBUILT_OPERATIONS } from '../../src/api/unbuilt-operations';
import { DEFAULT_ABUSE_LIMITS } from '../../src/config';
import { loadReferenceDocument } from '../support/reference-document';
import { BASE, Harness } from '../support/harness';

// What a request answers when no operation of the service takes it: an id that is not an id,
// an operation of the reference not built yet, a path that exists with another method.

let h: Harness;
let app: ReturnType<typeof createApp>;
let auth: string;
/** An agent's bearer token: the unbuilt operations under /agents/me authenticate agents. */
let agentAuth: string;
beforeAll(async () => {
  h = await Harness.start();
  // Every operation twice in a row: the per-token rate limit is not what this file tests.
  app = createApp({ ...h.deps, config: { ...h.deps.config, limits: { ...DEFAULT_ABUSE_LIMITS, requestsPerSecond: 100_000, requestBurst: 100_000 } } });
  const p = await h.platform();
  auth = p.auth;
  const customer = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'fallbacks', fullName: 'Fay Fallback' });
  const policy = { permissions: [], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 0 } };
  const agent = await p.api.post('/agents', { name: 'fallbacks', customerId: customer.body.id, policy });
  const redeemed = await request(app).post(`${BASE}/agents/device-codes/${agent.body.deviceCode.code}/redeem`);
  agentAuth = `Bearer ${redeemed.body.accessToken}`;
}, 120_000);
afterAll(async () => {
  await h.stop();
});

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** `METHOD /path/{}`: parameters named alike, whatever the document calls them. */
const shape = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}|:\w+/g, '{}')}`;
const send = (method: string, path: string, authorization?: string) => {
  const r = request(app)[method as 'get'](`${BASE}${path}`);
  return authorization ? r.set('Authorization', authorization) : r;
};
const concrete = (path: string, value: string) => path.replace(/\{[^}]+\}/g, encodeURIComponent(value));

describe('operations of the reference not built yet', () => {
  test('every operation of the reference is either mounted or listed as unbuilt, and nothing listed is mounted or unknown to the reference', () => {
    const reference = Object.entries(loadReferenceDocument().paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => METHODS.includes(m))
        .map((m) => shape(m, path)),
    );
    const mounted = new Set(registeredRoutes.map((r) => shape(r.method, r.path)));
    const unbuilt = UNBUILT_OPERATIONS.map((op) => shape(op.split(' ')[0]!, op.split(' ')[1]!));
    expect(reference.filter((op) => !mounted.has(op) && !unbuilt.includes(op))).toEqual([]);
    expect(unbuilt.filter((op) => mounted.has(op))).toEqual([]);
    expect(unbuilt.filter((op) => !reference.includes(op))).toEqual([]);
    expect(new Set(unbuilt).size).toBe(unbuilt.length);
  });

  test('each answers 501 NOT_IMPLEMENTED with the §7 body, after authentication; none is in the OpenAPI document', async () => {
    const problems: string[] = [];
    for (const op of UNBUILT_OPERATIONS) {
      const [method, path] = op.split(' ') as [string, string];
      const url = concrete(path, `Unknown:${randomUUID()}`);
      const anonymous = await send(method.toLowerCase(), url);
      if (anonymous.status !== 401 || anonymous.body.code !== 'UNAUTHORIZED')
        problems.push(`${op} without credentials: ${anonymous.status} ${anonymous.body.code}`);
      const res = await send(method.toLowerCase(), url, credentialKindOf(method, path) === 'agent' ? agentAuth : auth);
      const body = res.body as { status?: number; code?: string; reason?: string; message?: string };
      if (res.status !== 501 || body.code !== 'NOT_IMPLEMENTED' || body.status !== 501 || typeof body.reason !== 'string' || body.message !== body.reason)
        problems.push(`${op}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(problems).toEqual([]);
    const doc = (await request(app).get(`${BASE}/openapi.json`)).body as { paths: Record<string, Record<string, unknown>> };
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => shape(m, path))));
    expect(UNBUILT_OPERATIONS.filter((op) => documented.has(shape(op.split(' ')[0]!, op.split(' ')[1]!)))).toEqual([]);
  });

  test('the 501 names the operation; a path of an operation with another method is 405', async () => {
    // Whichever operation is still unbuilt (none once every one is built).
    for (const op of UNBUILT_OPERATIONS.slice(0, 1)) {
      const [method, path] = op.split(' ') as [string, string];
      const res = await send(method.toLowerCase(), concrete(path, `Unknown:${randomUUID()}`), credentialKindOf(method, path) === 'agent' ? agentAuth : auth);
      expect(res.status).toBe(501);
      expect(res.body.reason).toContain(op);
    }
    const wrongMethod = await send('get', `/transactions/Transaction:${randomUUID()}/approve`, auth);
    expect([wrongMethod.status, wrongMethod.body.code, wrongMethod.headers.allow]).toEqual([405, 'METHOD_NOT_ALLOWED', 'POST']);
  });
});

describe('an id parameter that is not an id', () => {
  test('GET /transactions/not-an-id answers as an unknown id does: 404 TRANSACTION_NOT_FOUND, not "No route"', async () => {
    const res = await send('get', '/transactions/not-an-id', auth);
    expect([res.status, res.body.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
    expect(res.body.reason).not.toMatch(/No route/);
    // Another method on it is 405, as for a well-formed id.
    const del = await send('delete', '/transactions/not-an-id', auth);
    expect([del.status, del.body.code, del.headers.allow]).toEqual([405, 'METHOD_NOT_ALLOWED', 'GET']);
  });

  test('on every mounted operation with id parameters, a malformed id is answered exactly as a well-formed unknown one', async () => {
    const withIds = registeredRoutes.filter((r) => r.idParams);
    expect(withIds.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const route of withIds) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const unknown = await send(route.method, concrete(path, `Unknown:${randomUUID()}`), auth)
        .set('Idempotency-Key', randomUUID())
        .send({});
      const malformed = await send(route.method, concrete(path, 'not-an-id'), auth).set('Idempotency-Key', randomUUID()).send({});
      if (malformed.status !== unknown.status || malformed.body.code !== unknown.body.code)
        problems.push(
          `${shape(route.method, route.path)}: malformed ${malformed.status} ${malformed.body.code}, unknown ${unknown.status} ${unknown.body.code}`,
        );
    }
    expect(problems).toEqual([]);
  });

  test('a literal path is still its own route, and its other methods 405', async () => {
    expect((await send('get', '/customers/external-accounts', auth)).status).toBe(200);
    const patch = await send('patch', '/customers/external-accounts', auth).send({});
    expect([patch.status, patch.body.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
    const unknown = await send('get', '/no-such-thing', auth);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
  });
});

import type { AddressInfo } from 'node:net';
import { request as httpRequest, type Server } from 'node:http';
import request from 'supertest';
import { MAX_JSON_DEPTH } from '../../src/api/input-guards';
import { createApp } from '../../src/api/app';
import { DEFAULT_ABUSE_LIMITS } from '../../src/config';
import { Customer } from '../../src/contexts/customers/entities';
import { BASE, Harness } from '../support/harness';

// Findings of the second outside run (issue 25, items 5 and 6): 500s before authentication and on
// deeply nested bodies, JSON accepted under any content type, authenticated answers cacheable.

let h: Harness;
let server: Server;
let p: Awaited<ReturnType<Harness['platform']>>;
beforeAll(async () => {
  h = await Harness.start();
  p = await h.platform();
  server = h.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.stop();
});

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const customersOf = (platformId: string) => h.orm.em.fork().count(Customer, { platformId });
const individual = JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId: 'edge-1', fullName: 'Ada Edge' });

/** A raw POST: exactly these headers (no content type unless given) and this body. */
function rawPost(
  path: string,
  headers: Record<string, string>,
  body: string | null,
): Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, unknown> }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `${BASE}${path}`,
        headers: { ...headers, ...(body === null ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          resolve({ status: res.statusCode!, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
        });
      },
    );
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

describe('control characters in the Basic user name', () => {
  test.each([
    ['a NUL', 'Token:\u0000'],
    ['a NUL inside an id', 'Token:00000000-0000-4000-8000-\u0000000000000000'],
    ['another control character', 'Token:abc\u0001def'],
    ['a line feed', 'Token:abc\ndef'],
  ])('%s is a plain 401, never a 500', async (_label, user) => {
    const res = await request(h.app).get(`${BASE}/config`).set('Authorization', basic(user, 'sk_x'));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });
});

describe('deeply nested JSON bodies', () => {
  const nested = (depth: number, open = '{"a":', close = '}') => `${open.repeat(depth)}1${close.repeat(depth)}`;

  test.each([
    ['5,000 nested objects', nested(5_000)],
    ['20,000 nested arrays', nested(20_000, '[', ']')],
    ['one level past the limit', nested(MAX_JSON_DEPTH + 1)],
  ])('%s: 400 INVALID_INPUT on body, nothing stored', async (_label, body) => {
    const before = await customersOf(p.platform.id);
    const res = await rawPost('/customers', { authorization: p.auth, 'content-type': 'application/json' }, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'INVALID_INPUT',
      details: { errors: [expect.objectContaining({ field: 'body', constraint: { rule: 'maxDepth', maxDepth: MAX_JSON_DEPTH } })] },
    });
    expect(await customersOf(p.platform.id)).toBe(before);
  });

  test('a body at the limit is read and validated as usual', async () => {
    const res = await rawPost('/customers', { authorization: p.auth, 'content-type': 'application/json' }, nested(MAX_JSON_DEPTH - 1));
    expect(res.status).toBe(400);
    expect(res.body.details).toMatchObject({ errors: expect.arrayContaining([expect.objectContaining({ field: 'customerType' })]) });
  });

  test('the limit is a guard of every route, idempotent ones included', async () => {
    const res = await rawPost('/quotes', { authorization: p.auth, 'content-type': 'application/json', 'idempotency-key': 'deep-1' }, nested(5_000));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('JSON operations take JSON only: any other content type is 415', () => {
  test.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['no content type', {}],
    ['form-encoded', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['multipart', { 'content-type': 'multipart/form-data; boundary=x' }],
  ])('%s: 415 UNSUPPORTED_MEDIA_TYPE, nothing stored', async (_label, headers) => {
    const before = await customersOf(p.platform.id);
    const res = await rawPost('/customers', { authorization: p.auth, ...headers }, individual);
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      reason: expect.any(String),
      message: expect.any(String),
      details: { contentType: 'application/json' },
    });
    expect(await customersOf(p.platform.id)).toBe(before);
  });

  test('application/json with a charset, and application/*+json, are JSON', async () => {
    const charset = await rawPost('/customers', { authorization: p.auth, 'content-type': 'application/json; charset=utf-8' }, individual);
    expect(charset.status).toBe(201);
    const plus = await rawPost('/customers', { authorization: p.auth, 'content-type': 'application/merge-patch+json' }, individual.replace('edge-1', 'edge-2'));
    expect(plus.status).toBe(201);
  });

  test('a POST without a body needs no content type', async () => {
    expect((await rawPost('/webhooks/test', { authorization: p.auth }, null)).status).toBe(200);
    expect((await rawPost('/webhooks/test', { authorization: p.auth, 'content-length': '0' }, null)).status).toBe(200);
    expect((await rawPost('/webhooks/test', { authorization: p.auth, 'content-type': 'text/plain' }, '')).status).toBe(200);
  });

  test('credentials come first: an unauthenticated text/plain body is 401', async () => {
    expect((await rawPost('/customers', { 'content-type': 'text/plain' }, individual)).status).toBe(401);
  });

  test('the OpenAPI document declares the 415 on every operation with a JSON body', async () => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> }; responses: Record<string, unknown> }>>;
    };
    let jsonOperations = 0;
    for (const operations of Object.values(doc.paths)) {
      for (const op of Object.values(operations)) {
        if (op.requestBody?.content['application/json']) {
          jsonOperations++;
          expect(op.responses['415']).toBeDefined();
        }
      }
    }
    expect(jsonOperations).toBeGreaterThan(20);
  });
});

describe('authenticated answers are never cached', () => {
  test('success and every refusal of the API carry Cache-Control: no-store', async () => {
    const locked = createApp({ ...h.deps, config: { ...h.deps.config, limits: { ...DEFAULT_ABUSE_LIMITS, requestBurst: 1, requestsPerSecond: 0.001 } } });
    const viewer = (await p.api.post('/tokens', { name: 'viewer', permissions: ['VIEW'] }).expect(201)).body as { id: string; clientSecret: string };
    const answers = [
      await request(h.app).get(`${BASE}/config`).set('Authorization', p.auth),
      await request(h.app).get(`${BASE}/config`),
      await request(h.app).get(`${BASE}/config`).set('Authorization', basic(p.token.tokenId, 'sk_wrong')),
      await request(h.app).patch(`${BASE}/config`).set('Authorization', basic(viewer.id, viewer.clientSecret)).send({}),
      await request(h.app).get(`${BASE}/customers/Customer:00000000-0000-4000-8000-000000000000`).set('Authorization', p.auth),
      await request(h.app).get(`${BASE}/no-such-route`).set('Authorization', p.auth),
      await request(h.app).post(`${BASE}/customers`).set('Authorization', p.auth).send({}),
      await request(locked).get(`${BASE}/config`).set('Authorization', p.auth),
      await request(locked).get(`${BASE}/config`).set('Authorization', p.auth),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 401, 403, 404, 404, 400, 200, 429]);
    for (const res of answers) expect(res.headers['cache-control']).toBe('no-store');
  });

  test('the public OpenAPI document stays cacheable', async () => {
    const doc = await request(h.app).get(`${BASE}/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.headers['cache-control']).not.toBe('no-store');
  });
});

import type { AddressInfo } from 'node:net';
import { request as httpRequest, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { JSON_BODY_LIMIT_BYTES } from '../../src/api/body-limits';
import { createApp } from '../../src/api/app';
import { DEFAULT_ABUSE_LIMITS, type AbuseLimits } from '../../src/config';
import { MAX_DOCUMENT_BYTES } from '../../src/contexts/customers/domain/documents';
import { MAX_CSV_BYTES } from '../../src/contexts/customers/domain/bulk-import';
import { multipartBodyLimit } from '../../src/api/multipart';
import { BASE, Harness } from '../support/harness';

let h: Harness;
let server: Server;
let platform: Awaited<ReturnType<Harness['platform']>>;
beforeAll(async () => {
  h = await Harness.start();
  platform = await h.platform();
  server = h.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.stop();
});

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

/** An app instance of its own with these limits and a clock the test moves by hand. */
function appWith(limits: Partial<AbuseLimits>) {
  let t = 1_000_000;
  const app = createApp({ ...h.deps, config: { ...h.deps.config, limits: { ...DEFAULT_ABUSE_LIMITS, ...limits } }, now: () => t });
  return { app, advanceSeconds: (s: number) => (t += s * 1000) };
}

/** A raw request: headers as given, then `chunks` written one by one (or none at all), and the answer. */
function rawRequest(method: string, path: string, headers: Record<string, string>, chunks: Buffer[] | null): Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, unknown> }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: `${BASE}${path}`, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown> });
        req.destroy();
      });
    });
    // The server may answer and close before the whole body is written: that is the point.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    if (chunks === null) {
      req.flushHeaders();
      return;
    }
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

/** A JSON object of exactly `bytes` bytes. */
const jsonOfSize = (bytes: number) => Buffer.from(JSON.stringify({ note: 'x'.repeat(bytes - '{"note":""}'.length) }));

describe('request-size limits per route', () => {
  test('a JSON body one byte over the default is 413 PAYLOAD_TOO_LARGE with the §7 body and the limit', async () => {
    const res = await platform.api.post('/customers').set('Content-Type', 'application/json').send(jsonOfSize(JSON_BODY_LIMIT_BYTES + 1).toString());
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE', reason: expect.stringContaining(String(JSON_BODY_LIMIT_BYTES)), message: expect.any(String), details: { maxBytes: JSON_BODY_LIMIT_BYTES } });
  });

  test('a JSON body of exactly the limit is read and validated', async () => {
    const res = await platform.api.post('/customers').set('Content-Type', 'application/json').send(jsonOfSize(JSON_BODY_LIMIT_BYTES).toString());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
  });

  test('a chunked body without Content-Length is stopped at the limit', async () => {
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const res = await rawRequest('POST', '/customers', { authorization: platform.auth, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, [Buffer.from('{"note":"'), ...Array.from({ length: 5 }, () => chunk), Buffer.from('"}')]);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  test('a gzip body is measured after decompression', async () => {
    const bomb = gzipSync(jsonOfSize(4 * JSON_BODY_LIMIT_BYTES));
    expect(bomb.length).toBeLessThan(JSON_BODY_LIMIT_BYTES);
    const gzip = { authorization: platform.auth, 'content-type': 'application/json', 'content-encoding': 'gzip' };
    const res = await rawRequest('POST', '/customers', gzip, [bomb]);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    // A small one is read like any other body.
    expect((await rawRequest('POST', '/customers', gzip, [gzipSync(Buffer.from('{}'))])).body.details).toMatchObject({ errors: expect.arrayContaining([expect.objectContaining({ field: 'customerType' })]) });
  });

  // Found here: a body that is not in its declared Content-Encoding was a 500.
  test('a corrupt gzip body is 400 INVALID_INPUT, not a 500', async () => {
    const res = await rawRequest('POST', '/customers', { authorization: platform.auth, 'content-type': 'application/json', 'content-encoding': 'gzip' }, [Buffer.from('{"not":"gzip"}')]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: 'body' }] } });
  });

  test('document uploads take their file and form; a larger declared body is refused before it is sent', async () => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body;
    const description = doc.paths['/documents'].post.responses['413'].description as string;
    const limit = Number(/over (\d+) bytes/.exec(description)![1]);
    expect(limit).toBeGreaterThan(MAX_DOCUMENT_BYTES);
    const res = await rawRequest('POST', '/documents', { authorization: platform.auth, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(limit + 1) }, null);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { maxBytes: limit } });
  });

  test('unauthenticated requests are refused before their body is read', async () => {
    const res = await rawRequest('POST', '/customers', { 'content-type': 'application/json', 'content-length': String(10 * JSON_BODY_LIMIT_BYTES) }, null);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  test('every operation declares its 413 with its limit, and 429 with Retry-After', async () => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body as { paths: Record<string, Record<string, { responses: Record<string, { description: string; headers?: Record<string, unknown> }> }>> };
    const limits = new Set<string>();
    for (const operations of Object.values(doc.paths)) {
      for (const op of Object.values(operations)) {
        expect(op.responses['413']!.description).toMatch(/^PAYLOAD_TOO_LARGE: the request body is over \d+ bytes$/);
        limits.add(op.responses['413']!.description);
        expect(op.responses['429']!.headers).toHaveProperty('Retry-After');
      }
    }
    expect(limits).toEqual(
      new Set([
        `PAYLOAD_TOO_LARGE: the request body is over ${JSON_BODY_LIMIT_BYTES} bytes`,
        doc.paths['/documents']!.post!.responses['413']!.description,
        `PAYLOAD_TOO_LARGE: the request body is over ${multipartBodyLimit({ fileField: 'file', maxFileBytes: MAX_CSV_BYTES })} bytes`,
      ]),
    );
    expect(doc.paths['/customers/bulk/csv']!.post!.responses['413']!.description).toMatch(/over 6619136 bytes/);
  });
});

describe('per-token rate limit', () => {
  test('past the burst: 429 RATE_LIMITED with Retry-After; other tokens unaffected; after the wait it goes through', async () => {
    const { app, advanceSeconds } = appWith({ requestsPerSecond: 0.5, requestBurst: 3 });
    const other = await h.platform();
    const get = (auth: string) => request(app).get(`${BASE}/config`).set('Authorization', auth);
    for (let i = 0; i < 3; i++) expect((await get(platform.auth)).status).toBe(200);
    const limited = await get(platform.auth);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('2');
    expect(limited.body).toEqual({ status: 429, code: 'RATE_LIMITED', reason: expect.any(String), message: expect.any(String), details: { retryAfterSeconds: 2 } });
    expect((await get(other.auth)).status).toBe(200);
    advanceSeconds(2);
    expect((await get(platform.auth)).status).toBe(200);
    expect((await get(platform.auth)).status).toBe(429);
  });
});

describe('authentication failures are slowed down', () => {
  const lockout = { authFailuresBeforeLockout: 3, authLockoutSeconds: 2, authLockoutMaxSeconds: 60 };

  test('a token id: locked after repeated wrong secrets, even for the right one; the window grows; success resets', async () => {
    const { app, advanceSeconds } = appWith(lockout);
    const { token } = await h.platform();
    const get = (secret: string) => request(app).get(`${BASE}/config`).set('Authorization', basic(token.tokenId, secret));
    for (let i = 0; i < 3; i++) expect((await get('sk_wrong')).status).toBe(401);
    const locked = await get(token.clientSecret);
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBe('2');
    expect(locked.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', details: { retryAfterSeconds: 2 } });
    advanceSeconds(2);
    // One more failure after the window doubles it.
    expect((await get('sk_wrong')).status).toBe(401);
    expect((await get(token.clientSecret)).headers['retry-after']).toBe('4');
    advanceSeconds(4);
    expect((await get(token.clientSecret)).status).toBe(200);
    // The success forgot the failures: the whole allowance again, then the first window again.
    for (let i = 0; i < 3; i++) expect((await get('sk_wrong')).status).toBe(401);
    const again = await get('sk_wrong');
    expect(again.status).toBe(429);
    expect(again.headers['retry-after']).toBe('2');
  });

  test('unknown token ids count against the address; known tokens from it are not locked', async () => {
    const { app } = appWith(lockout);
    const { auth } = await h.platform();
    const unknown = (n: number) => basic(`Token:00000000-0000-4000-8000-00000000000${n}`, 'sk_guess');
    for (let n = 0; n < 3; n++) expect((await request(app).get(`${BASE}/config`).set('Authorization', unknown(n))).status).toBe(401);
    const locked = await request(app).get(`${BASE}/config`).set('Authorization', unknown(9));
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBe('2');
    expect((await request(app).get(`${BASE}/config`).set('Authorization', auth)).status).toBe(200);
  });

  test('a client whose credentials this process verified keeps working while an attacker locks its token id', async () => {
    const { app } = appWith(lockout);
    const { token, auth } = await h.platform();
    expect((await request(app).get(`${BASE}/config`).set('Authorization', auth)).status).toBe(200);
    for (let i = 0; i < 3; i++) await request(app).get(`${BASE}/config`).set('Authorization', basic(token.tokenId, 'sk_guess'));
    expect((await request(app).get(`${BASE}/config`).set('Authorization', basic(token.tokenId, 'sk_guess'))).status).toBe(429);
    expect((await request(app).get(`${BASE}/config`).set('Authorization', auth)).status).toBe(200);
  });

  test('missing or malformed credentials are 401 and never lock anyone out', async () => {
    const { app } = appWith(lockout);
    for (let i = 0; i < 5; i++) {
      expect((await request(app).get(`${BASE}/config`)).status).toBe(401);
      expect((await request(app).get(`${BASE}/config`).set('Authorization', 'Basic %%%')).status).toBe(401);
    }
    expect((await request(app).get(`${BASE}/config`).set('Authorization', basic('Token:00000000-0000-4000-8000-000000000000', 'x'))).status).toBe(401);
  });
});

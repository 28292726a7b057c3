import { createHmac, hkdfSync, randomBytes, randomUUID, scryptSync } from 'node:crypto';
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
import { ApiToken } from '../../src/contexts/platforms/entities';
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
function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  chunks: Buffer[] | null,
): Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, unknown> }> {
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
    const res = await platform.api
      .post('/customers')
      .set('Content-Type', 'application/json')
      .send(jsonOfSize(JSON_BODY_LIMIT_BYTES + 1).toString());
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      reason: expect.stringContaining(String(JSON_BODY_LIMIT_BYTES)),
      message: expect.any(String),
      details: { maxBytes: JSON_BODY_LIMIT_BYTES },
    });
  });

  test('a JSON body of exactly the limit is read and validated', async () => {
    const res = await platform.api.post('/customers').set('Content-Type', 'application/json').send(jsonOfSize(JSON_BODY_LIMIT_BYTES).toString());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
  });

  test('a chunked body without Content-Length is stopped at the limit', async () => {
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const res = await rawRequest('POST', '/customers', { authorization: platform.auth, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, [
      Buffer.from('{"note":"'),
      ...Array.from({ length: 5 }, () => chunk),
      Buffer.from('"}'),
    ]);
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
    expect((await rawRequest('POST', '/customers', gzip, [gzipSync(Buffer.from('{}'))])).body.details).toMatchObject({
      errors: expect.arrayContaining([expect.objectContaining({ field: 'customerType' })]),
    });
  });

  // Found here: a body that is not in its declared Content-Encoding was a 500.
  test('a corrupt gzip body is 400 INVALID_INPUT, not a 500', async () => {
    const res = await rawRequest('POST', '/customers', { authorization: platform.auth, 'content-type': 'application/json', 'content-encoding': 'gzip' }, [
      Buffer.from('{"not":"gzip"}'),
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: 'body' }] } });
  });

  test('document uploads take their file and form; a larger declared body is refused before it is sent', async () => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body;
    const description = doc.paths['/documents'].post.responses['413'].description as string;
    const limit = Number(/over (\d+) bytes/.exec(description)![1]);
    expect(limit).toBeGreaterThan(MAX_DOCUMENT_BYTES);
    const res = await rawRequest(
      'POST',
      '/documents',
      { authorization: platform.auth, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(limit + 1) },
      null,
    );
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { maxBytes: limit } });
  });

  test('unauthenticated requests are refused before their body is read', async () => {
    const res = await rawRequest('POST', '/customers', { 'content-type': 'application/json', 'content-length': String(10 * JSON_BODY_LIMIT_BYTES) }, null);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  test('every operation declares its 413 with its limit, and 429 with Retry-After', async () => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string; headers?: Record<string, unknown> }> }>>;
    };
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
    expect(limited.body).toEqual({
      status: 429,
      code: 'RATE_LIMITED',
      reason: expect.any(String),
      message: expect.any(String),
      details: { retryAfterSeconds: 2 },
    });
    expect((await get(other.auth)).status).toBe(200);
    advanceSeconds(2);
    expect((await get(platform.auth)).status).toBe(200);
    expect((await get(platform.auth)).status).toBe(429);
  });
});

/** A token as an earlier version stored it: its secret under the slow scrypt hash. */
async function legacyToken(platformId: string) {
  const secret = `sk_legacy-secret-of-an-older-version-${randomUUID()}`;
  const salt = randomBytes(16);
  const scrypted = scryptSync(secret, salt, 32, { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  const legacy = ['scrypt', 32768, 8, 1, salt.toString('base64url'), scrypted.toString('base64url')].join('$');
  const tokenId = `Token:${randomUUID()}`;
  const now = new Date();
  await h.orm.em.fork().insert(ApiToken, {
    id: tokenId,
    platformId,
    name: 'legacy',
    environment: 'SANDBOX',
    permissions: ['VIEW'],
    secretHash: legacy,
    createdAt: now,
    updatedAt: now,
  });
  return { tokenId, secret, legacy };
}

describe('authentication failures are throttled per address, never per token', () => {
  const lockout = { authFailuresBeforeLockout: 3, authLockoutSeconds: 2, authLockoutMaxSeconds: 60 };

  /** The app of `appWith` on a port of its own, called from a chosen loopback address (127.0.0.0/8 is all local). */
  async function served(limits: Partial<AbuseLimits>) {
    const { app, advanceSeconds } = appWith(limits);
    const listener = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    const { port } = listener.address() as AddressInfo;
    const get = (from: string, authorization: string) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Record<string, unknown>; ms: number }>((resolve, reject) => {
        const started = process.hrtime.bigint();
        const req = httpRequest(
          { host: '127.0.0.1', port, localAddress: from, method: 'GET', path: `${BASE}/config`, headers: { authorization }, agent: false },
          (res) => {
            const parts: Buffer[] = [];
            res.on('data', (c: Buffer) => parts.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode!,
                headers: res.headers,
                body: JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>,
                ms: Number(process.hrtime.bigint() - started) / 1e6,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });
    return { get, advanceSeconds, close: () => new Promise((resolve) => listener.close(resolve)) };
  }

  // Issue 25 item 3: one wrong secret a second kept the rightful client on 429 from its 60th second.
  test('one wrong secret a second from another address, for five minutes, never makes the right secret fail', async () => {
    const s = await served(DEFAULT_ABUSE_LIMITS);
    try {
      const { token, auth } = await h.platform();
      for (let second = 0; second < 300; second++) {
        expect((await s.get('127.0.0.2', basic(token.tokenId, `sk_guess${second}`))).status).toBeGreaterThanOrEqual(401);
        if (second % 10 === 9) expect((await s.get('127.0.0.1', auth)).status).toBe(200);
        s.advanceSeconds(1);
      }
      // The attacker's address is locked out; its wrong guesses are 429, the client never was.
      expect((await s.get('127.0.0.2', basic(token.tokenId, 'sk_guess'))).status).toBe(429);
      expect((await s.get('127.0.0.1', auth)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  test('an address in lockout: wrong secrets are 429, the right secret still works, and a success does not reset the count', async () => {
    const s = await served(lockout);
    try {
      const { token, auth } = await h.platform();
      for (let i = 0; i < 3; i++) expect((await s.get('127.0.0.3', basic(token.tokenId, 'sk_wrong'))).status).toBe(401);
      const locked = await s.get('127.0.0.3', basic(token.tokenId, 'sk_wrong'));
      expect(locked.status).toBe(429);
      expect(locked.headers['retry-after']).toBe('2');
      expect(locked.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', details: { retryAfterSeconds: 2 } });
      // Behind a proxy or NAT the rightful client shares the address: its right secret goes through.
      expect((await s.get('127.0.0.3', auth)).status).toBe(200);
      // ...and does not clear the failures (else a second platform's own token would reset its guessing).
      expect((await s.get('127.0.0.3', basic(token.tokenId, 'sk_wrong'))).status).toBe(429);
      // Other addresses are not affected.
      expect((await s.get('127.0.0.4', basic(token.tokenId, 'sk_wrong'))).status).toBe(401);
      s.advanceSeconds(2);
      // One more failure after the window doubles it.
      expect((await s.get('127.0.0.3', basic(token.tokenId, 'sk_wrong'))).status).toBe(401);
      expect((await s.get('127.0.0.3', basic(token.tokenId, 'sk_wrong'))).headers['retry-after']).toBe('4');
    } finally {
      await s.close();
    }
  });

  test('under an address lockout, unknown and known token ids get the same answer in the same time', async () => {
    const s = await served(lockout);
    try {
      const { token } = await h.platform();
      const known = basic(token.tokenId, 'sk_wrong');
      const unknown = basic('Token:00000000-0000-4000-8000-000000000001', 'sk_wrong');
      // Before the lockout, too: the same 401.
      const [k1, u1] = [await s.get('127.0.0.5', known), await s.get('127.0.0.5', unknown)];
      expect([k1.status, u1.status]).toEqual([401, 401]);
      expect(k1.body).toEqual(u1.body);
      await s.get('127.0.0.5', unknown);
      const times: { known: number[]; unknown: number[] } = { known: [], unknown: [] };
      const answers: { status: number; headers: Record<string, unknown>; body: unknown }[] = [];
      const comparable = (r: Awaited<ReturnType<typeof s.get>>) => {
        const { date: _date, 'x-request-id': _id, ...headers } = r.headers;
        return { status: r.status, headers, body: r.body };
      };
      for (let i = 0; i < 15; i++) {
        const k = await s.get('127.0.0.5', known);
        const u = await s.get('127.0.0.5', unknown);
        times.known.push(k.ms);
        times.unknown.push(u.ms);
        answers.push(comparable(k), comparable(u));
      }
      expect(answers[0]!.status).toBe(429);
      for (const answer of answers) expect(answer).toEqual(answers[0]);
      // A slow hash for the known id (the scrypt of before) took ~100 ms; the keyed hash takes microseconds. The
      // fastest answer of each kind is its own cost with the least of the machine's load in it (a median moved by
      // 35 ms on a loaded core), and a hash's cost is in every answer of its kind, the fastest too.
      expect(Math.abs(Math.min(...times.known) - Math.min(...times.unknown))).toBeLessThan(30);
    } finally {
      await s.close();
    }
  });

  test("a locked address gets no slow scrypt check of a legacy token: answered as fast as an unknown id's, and its first good check waits for the window", async () => {
    const s = await served(lockout);
    try {
      const { platform } = await h.platform();
      const { tokenId, secret } = await legacyToken(platform.id);
      const unknown = basic('Token:00000000-0000-4000-8000-000000000002', 'sk_wrong');
      for (let i = 0; i < 3; i++) expect((await s.get('127.0.0.6', unknown)).status).toBe(401);
      const times: { legacy: number[]; unknown: number[] } = { legacy: [], unknown: [] };
      for (let i = 0; i < 15; i++) {
        const l = await s.get('127.0.0.6', basic(tokenId, `sk_guess${i}`));
        const u = await s.get('127.0.0.6', unknown);
        expect([l.status, u.status]).toEqual([429, 429]);
        times.legacy.push(l.ms);
        times.unknown.push(u.ms);
      }
      // One scrypt check of this kind takes ~100 ms and 32 MB: anyone could spend them without limit. As above,
      // the fastest answer of each kind is compared: a scrypt would be in every legacy answer, the fastest too,
      // while a loaded core moves medians (one run pinned to a shared core read 30 ms and more between them).
      expect(Math.abs(Math.min(...times.legacy) - Math.min(...times.unknown))).toBeLessThan(30);
      // The rightful client's first good check (which re-hashes the token) works from any other
      // address at once, and from this one after the window.
      expect((await s.get('127.0.0.6', basic(tokenId, secret))).status).toBe(429);
      expect((await s.get('127.0.0.7', basic(tokenId, secret))).status).toBe(200);
      expect((await s.get('127.0.0.6', basic(tokenId, secret))).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  test('missing or malformed credentials are 401 and count nothing', async () => {
    const { app } = appWith(lockout);
    for (let i = 0; i < 5; i++) {
      expect((await request(app).get(`${BASE}/config`)).status).toBe(401);
      expect((await request(app).get(`${BASE}/config`).set('Authorization', 'Basic %%%')).status).toBe(401);
    }
    expect((await request(app).get(`${BASE}/config`).set('Authorization', basic('Token:00000000-0000-4000-8000-000000000000', 'x'))).status).toBe(401);
  });
});

describe('client secrets are stored as a keyed hash', () => {
  const stored = async (tokenId: string) => (await h.orm.em.fork().findOneOrFail(ApiToken, { id: tokenId })).secretHash;

  test('a new token stores HMAC-SHA-256 of its secret under a key derived from the master key', async () => {
    const { token } = await h.platform();
    const key = Buffer.from(hkdfSync('sha256', h.masterKey, Buffer.alloc(0), 'client-secret-hash-v1', 32));
    expect(await stored(token.tokenId)).toBe(`hmac-sha256$${createHmac('sha256', key).update(token.clientSecret).digest('base64url')}`);
    const { body } = await (await h.platform()).api.post('/tokens', { name: 'keyed', permissions: ['VIEW'] }).expect(201);
    expect(await stored(body.id)).toBe(`hmac-sha256$${createHmac('sha256', key).update(body.clientSecret).digest('base64url')}`);
  });

  test('a token stored with the former scrypt hash still works, and is re-hashed on its first good check', async () => {
    const { platform } = await h.platform();
    const { tokenId, secret, legacy } = await legacyToken(platform.id);
    const get = (s: string) => request(h.app).get(`${BASE}/config`).set('Authorization', basic(tokenId, s));
    expect((await get(`${secret}x`)).status).toBe(401);
    expect(await stored(tokenId)).toBe(legacy);
    expect((await get(secret)).status).toBe(200);
    expect(await stored(tokenId)).toMatch(/^hmac-sha256\$/);
    expect((await get(secret)).status).toBe(200);
    expect((await get(`${secret}x`)).status).toBe(401);
  });
});

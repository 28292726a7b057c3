import request from 'supertest';
import { createApp } from '../../src/api/app';
import type { ApiDeps } from '../../src/api/context';
import { DEFAULT_ABUSE_LIMITS } from '../../src/config';
import { Customer } from '../../src/contexts/customers/entities';
import { DashboardAuditEntry, DashboardSession } from '../../src/contexts/dashboard/entities';
import { eventually } from '../support/eventually';
import { BASE, Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

const SESSION = `${BASE}/dashboard/session`;
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
let seq = 0;
const customerBody = () => ({ customerType: 'INDIVIDUAL', platformCustomerId: `dash-${Date.now()}-${seq++}` });

/** An app of its own: its clock moved by hand, the given deps changed. */
function appWith(changes: Partial<ApiDeps> = {}) {
  let t = Date.now();
  const app = createApp({ ...h.deps, now: () => t, ...changes });
  return { app, advanceMinutes: (m: number) => (t += m * 60_000) };
}

/** Signs in and returns the cookie header to send back, the CSRF token and the whole answer. */
async function signIn(app: ReturnType<typeof createApp>, clientId: string, clientSecret: string) {
  const res = await request(app).post(SESSION).send({ clientId, clientSecret });
  expect(res.status).toBe(201);
  const setCookie = (res.headers['set-cookie'] as unknown as string[])[0]!;
  return { cookie: setCookie.split(';')[0]!, csrf: res.body.csrfToken as string, res, setCookie };
}

const customersOf = async (platformId: string) => h.orm.em.fork().count(Customer, { platformId });

describe('dashboard sign-in', () => {
  test('sets an HttpOnly, SameSite=Strict cookie for Path=/ and answers the session; only a hash of the cookie is stored, never the secret', async () => {
    const { platform, token } = await h.platform();
    const { res, setCookie, cookie } = await signIn(h.app, token.tokenId, token.clientSecret);
    expect(setCookie).toMatch(/^svc_dashboard_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      platformId: platform.id,
      tokenId: token.tokenId,
      environment: 'SANDBOX',
      permissions: expect.arrayContaining(['VIEW', 'MANAGE']),
      expiresAt: expect.any(String),
      idleExpiresAt: expect.any(String),
      temporalUiUrl: null,
      temporalNamespace: 'default',
    });
    const cookieValue = cookie.split('=')[1]!;
    const rows = await h.orm.em.getConnection().execute<Record<string, unknown>[]>('select * from dashboard_sessions where token_id = ?', [token.tokenId]);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(cookieValue);
    expect(stored).not.toContain(token.clientSecret);
    expect(rows[0]!.cookie_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('the id without its Token: prefix works as for Basic; Secure is set when the public URL is https', async () => {
    const { token } = await h.platform();
    const { app } = appWith({ config: { ...h.deps.config, publicBaseUrl: 'https://payments.example/2025-10-13' } });
    const { setCookie } = await signIn(app, token.tokenId.replace(/^Token:/, ''), token.clientSecret);
    expect(setCookie).toMatch(/; Secure$/);
  });

  test('a wrong secret is 401 as Basic answers; failures share the address lockout with Basic (429 + Retry-After); a right secret still goes through', async () => {
    const { token } = await h.platform();
    const { app } = appWith({ config: { ...h.deps.config, limits: { ...DEFAULT_ABUSE_LIMITS, authFailuresBeforeLockout: 2, authLockoutSeconds: 60 } } });
    const wrong = await request(app).post(SESSION).send({ clientId: token.tokenId, clientSecret: 'sk_wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
    // The second failure, made with HTTP Basic, counts toward the same address's allowance.
    expect((await request(app).get(`${BASE}/customers`).set('Authorization', basic(token.tokenId, 'sk_wrong'))).status).toBe(401);
    const locked = await request(app).post(SESSION).send({ clientId: token.tokenId, clientSecret: 'sk_wrong' });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // And Basic is locked by the sign-in's failures too.
    expect((await request(app).get(`${BASE}/customers`).set('Authorization', basic(token.tokenId, 'sk_wrong'))).status).toBe(429);
    await signIn(app, token.tokenId, token.clientSecret);
  });

  test('an invalid body is 400 naming every field', async () => {
    const res = await request(h.app).post(SESSION).send({ clientId: '' });
    expect(res.status).toBe(400);
    expect(res.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['clientId', 'clientSecret']);
  });
});

describe('the API with a dashboard session', () => {
  test('reads work with the cookie alone; GET /dashboard/session answers the session; without a cookie it is 401', async () => {
    const { platform, token, api } = await h.platform();
    expect((await api.post('/customers', customerBody())).status).toBe(201);
    const { cookie } = await signIn(h.app, token.tokenId, token.clientSecret);
    const list = await request(h.app).get(`${BASE}/customers`).set('Cookie', cookie);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const session = await request(h.app).get(SESSION).set('Cookie', cookie);
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ platformId: platform.id, tokenId: token.tokenId });
    expect((await request(h.app).get(SESSION)).status).toBe(401);
    expect((await request(h.app).get(`${BASE}/customers`).set('Cookie', 'svc_dashboard_session=nonsense')).status).toBe(401);
  });

  test('a write without X-CSRF-Token (or a wrong one) is 403 FORBIDDEN and does nothing; with it, it is done and audited without its body', async () => {
    const { platform, token } = await h.platform();
    const { cookie, csrf, res } = await signIn(h.app, token.tokenId, token.clientSecret);
    const sessionId = (await h.orm.em.fork().findOneOrFail(DashboardSession, { tokenId: token.tokenId })).id;
    const refused = await request(h.app).post(`${BASE}/customers`).set('Cookie', cookie).send(customerBody());
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const wrong = await request(h.app)
      .post(`${BASE}/customers`)
      .set('Cookie', cookie)
      .set('X-CSRF-Token', `${csrf.slice(1)}x`)
      .send(customerBody());
    expect(wrong.status).toBe(403);
    expect(await customersOf(platform.id)).toBe(0);

    const body = customerBody();
    const created = await request(h.app).post(`${BASE}/customers`).set('Cookie', cookie).set('X-CSRF-Token', csrf).send(body);
    expect(created.status).toBe(201);
    expect(await customersOf(platform.id)).toBe(1);
    const audit = await eventually(
      () => h.orm.em.fork().find(DashboardAuditEntry, { platformId: platform.id }),
      (rows) => rows.length > 0,
    );
    expect(audit).toEqual([
      expect.objectContaining({
        sessionId,
        tokenId: token.tokenId,
        platformId: platform.id,
        method: 'POST',
        path: '/customers',
        status: 201,
        at: expect.any(Date),
      }),
    ]);
    expect(JSON.stringify(audit)).not.toContain(body.platformCustomerId);
    expect(res.body.csrfToken).toBe(csrf);
  });

  test("a VIEW token's session reads but cannot write (403), nothing done", async () => {
    const { platform, api } = await h.platform();
    const viewer = await api.post('/tokens', { name: 'viewer', permissions: ['VIEW'] });
    expect(viewer.status).toBe(201);
    const { cookie, csrf, res } = await signIn(h.app, viewer.body.id, viewer.body.clientSecret);
    expect(res.body.permissions).toEqual(['VIEW']);
    expect((await request(h.app).get(`${BASE}/customers`).set('Cookie', cookie)).status).toBe(200);
    const refused = await request(h.app).post(`${BASE}/customers`).set('Cookie', cookie).set('X-CSRF-Token', csrf).send(customerBody());
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect(await customersOf(platform.id)).toBe(0);
  });

  test('HTTP Basic wins when both are sent; another platform stays 404 with a session', async () => {
    const a = await h.platform();
    const b = await h.platform();
    const theirs = await b.api.post('/customers', customerBody());
    const { cookie } = await signIn(h.app, a.token.tokenId, a.token.clientSecret);
    const withSession = await request(h.app).get(`${BASE}/customers/${theirs.body.id}`).set('Cookie', cookie);
    expect(withSession.status).toBe(404);
    const withBoth = await request(h.app).get(`${BASE}/customers/${theirs.body.id}`).set('Cookie', cookie).set('Authorization', b.auth);
    expect(withBoth.status).toBe(200);
    const wrongBasic = await request(h.app).get(`${BASE}/customers`).set('Cookie', cookie).set('Authorization', basic(a.token.tokenId, 'sk_wrong'));
    expect(wrongBasic.status).toBe(401);
  });
});

describe('session lifetime', () => {
  const session = { idleTimeoutMs: 30 * 60_000, absoluteTimeoutMs: 2 * 60 * 60_000 };

  test('idle: 30 minutes without a request end it; each request restarts the idle timer', async () => {
    const { token } = await h.platform();
    const { app, advanceMinutes } = appWith({ dashboard: { session } });
    const { cookie } = await signIn(app, token.tokenId, token.clientSecret);
    advanceMinutes(20);
    expect((await request(app).get(`${BASE}/customers`).set('Cookie', cookie)).status).toBe(200);
    advanceMinutes(20);
    const current = await request(app).get(SESSION).set('Cookie', cookie);
    expect(current.status).toBe(200);
    advanceMinutes(31);
    expect((await request(app).get(`${BASE}/customers`).set('Cookie', cookie)).status).toBe(401);
    expect((await request(app).get(SESSION).set('Cookie', cookie)).status).toBe(401);
  });

  test('absolute: a session in constant use ends at its absolute limit', async () => {
    const { token } = await h.platform();
    const { app, advanceMinutes } = appWith({ dashboard: { session } });
    const { cookie, res } = await signIn(app, token.tokenId, token.clientSecret);
    expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.idleExpiresAt)).toBe(90 * 60_000);
    for (let i = 0; i < 5; i++) {
      advanceMinutes(20);
      expect((await request(app).get(SESSION).set('Cookie', cookie)).status).toBe(200);
    }
    advanceMinutes(20);
    expect((await request(app).get(SESSION).set('Cookie', cookie)).status).toBe(401);
  });

  test('sign-out needs the CSRF header, ends the session server-side and clears the cookie: the old cookie is 401', async () => {
    const { token } = await h.platform();
    const { cookie, csrf } = await signIn(h.app, token.tokenId, token.clientSecret);
    expect((await request(h.app).delete(SESSION).set('Cookie', cookie)).status).toBe(403);
    expect((await request(h.app).get(SESSION).set('Cookie', cookie)).status).toBe(200);
    const out = await request(h.app).delete(SESSION).set('Cookie', cookie).set('X-CSRF-Token', csrf);
    expect(out.status).toBe(204);
    expect((out.headers['set-cookie'] as unknown as string[])[0]).toMatch(/^svc_dashboard_session=; HttpOnly; SameSite=Strict; Path=\/; Max-Age=0/);
    expect((await request(h.app).get(SESSION).set('Cookie', cookie)).status).toBe(401);
    expect((await request(h.app).get(`${BASE}/customers`).set('Cookie', cookie)).status).toBe(401);
  });

  test('revoking the API token ends its sessions', async () => {
    const { api } = await h.platform();
    const second = await api.post('/tokens', { name: 'second', permissions: ['VIEW', 'MANAGE'] });
    const { cookie } = await signIn(h.app, second.body.id, second.body.clientSecret);
    expect((await request(h.app).get(`${BASE}/customers`).set('Cookie', cookie)).status).toBe(200);
    expect((await api.delete(`/tokens/${second.body.id}`)).status).toBe(204);
    expect((await request(h.app).get(`${BASE}/customers`).set('Cookie', cookie)).status).toBe(401);
    expect((await request(h.app).get(SESSION).set('Cookie', cookie)).status).toBe(401);
  });
});

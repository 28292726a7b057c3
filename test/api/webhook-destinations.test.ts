import request from 'supertest';
import { createApp } from '../../src/api/app';
import { Platform } from '../../src/contexts/platforms/entities';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { NOT_REACHED } from '../../src/contexts/webhooks/services/webhook-test';
import { BASE, Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

/** The receiver's own port (PORT), in the spellings an attacker tried; and the cloud metadata and private addresses. */
const ATTACKER_URLS = [
  'http://127.0.0.1:PORT/webhooks',
  'http://2130706433:PORT/webhooks',
  'http://0x7f000001:PORT/webhooks',
  'http://0177.0.0.1:PORT/webhooks',
  'http://[::1]:PORT/webhooks',
  'http://[::ffff:127.0.0.1]:PORT/webhooks',
  'http://localhost:PORT/webhooks',
  'https://127.0.0.1:PORT/webhooks',
  'https://[::ffff:127.0.0.1]:PORT/webhooks',
  'http://169.254.169.254/latest/meta-data/',
  'https://169.254.169.254/latest/meta-data/',
  'http://10.0.0.1/',
  'https://10.0.0.1/',
  'https://100.64.0.1/',
  'https://[fd00::1]/',
  'http://hooks.example.com/payments',
];
const atReceiver = (url: string) => url.replace('PORT', new URL(h.receiver.url).port);

describe('a production platform', () => {
  test.each(ATTACKER_URLS)('PATCH /config refuses %s: 400 INVALID_INPUT on webhookEndpoint, nothing changed', async (url) => {
    const { api } = await h.platform({ environment: 'PRODUCTION', webhookEndpoint: null });
    const res = await api.patch('/config', { webhookEndpoint: atReceiver(url) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: 'webhookEndpoint', constraint: { rule: 'webhookDestination' } }] } });
    expect(res.body.details.errors).toHaveLength(1);
    expect((await api.get('/config')).body.webhookEndpoint).toBeUndefined();
  });

  test('PATCH /config accepts a public https endpoint', async () => {
    const { api } = await h.platform({ environment: 'PRODUCTION', webhookEndpoint: null });
    const res = await api.patch('/config', { webhookEndpoint: 'https://hooks.example.com/payments' });
    expect(res.status).toBe(200);
    expect(res.body.webhookEndpoint).toBe('https://hooks.example.com/payments');
  });

  test('an endpoint stored before the policy is refused at delivery, without connecting; nothing of the target is echoed', async () => {
    const { api, platform } = await h.platform({ environment: 'PRODUCTION' });
    const em = h.orm.em.fork();
    for (const url of ATTACKER_URLS.slice(0, 9).map(atReceiver)) {
      await em.nativeUpdate(Platform, { id: platform.id }, { webhookEndpoint: url });
      const before = h.receiver.received.length;
      const res = await api.post('/webhooks/test');
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: 'WEBHOOK_DELIVERY_ERROR' });
      expect(res.body.details).toMatchObject({ responseStatus: null });
      expect(res.body.details.responseBody ?? '').toBe('');
      expect(res.body.reason).toContain(NOT_REACHED);
      expect(h.receiver.received.length).toBe(before);
    }
    // Each attempt is recorded, as failed without an answer.
    const events = await em.find(WebhookEvent, { platformId: platform.id, type: 'TEST' });
    expect(events.length).toBe(9);
    expect(events.every((e) => e.attempts === 1 && e.lastResponseStatus === null && e.state !== 'DELIVERED')).toBe(true);
  });

  test('an unreachable allowed destination is reported in one vague way', async () => {
    const { api } = await h.platform({ webhookEndpoint: 'http://127.0.0.1:9/closed' });
    const res = await api.post('/webhooks/test');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('WEBHOOK_DELIVERY_ERROR');
    expect(res.body.reason).not.toMatch(/ECONNREFUSED|refused|connect ECONN/i);
    // ...and the same way as a refused destination: what a host name resolves to is not told.
    expect(res.body.reason).toBe(`The webhook endpoint did not accept the test event (${NOT_REACHED})`);
  });
});

describe('a sandbox platform', () => {
  test('loopback receivers are allowed with the operator setting (the test harness, like npm start, sets it)', async () => {
    const { api } = await h.platform({ webhookEndpoint: null });
    const res = await api.patch('/config', { webhookEndpoint: h.receiver.url });
    expect(res.status).toBe(200);
    expect((await api.post('/webhooks/test')).status).toBe(200);
  });

  test.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://0.0.0.0:3000/',
    'http://[fd00::1]/',
    'http://[::ffff:10.0.0.1]/',
  ])('private and other non-public destinations stay refused even then: %s', async (url) => {
    const { api } = await h.platform({ webhookEndpoint: null });
    const res = await api.patch('/config', { webhookEndpoint: url });
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'webhookEndpoint', constraint: { rule: 'webhookDestination' } })]);
  });

  test('without the operator setting loopback is refused too (delivery: test/unit/webhook-destination-policy.test.ts)', async () => {
    const { auth, platform } = await h.platform({ webhookEndpoint: null });
    const app = createApp({ ...h.deps, config: { ...h.deps.config, webhookAllowLoopback: false } });
    const res = await request(app).patch(`${BASE}/config`).set('Authorization', auth).send({ webhookEndpoint: h.receiver.url });
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'webhookEndpoint', constraint: { rule: 'webhookDestination' } })]);
    expect((await h.orm.em.fork().findOneOrFail(Platform, { id: platform.id })).webhookEndpoint).toBeNull();
  });
});

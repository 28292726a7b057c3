import { WebhookSigningKey } from '../../src/contexts/platforms/entities';
import { createToken } from '../../src/contexts/platforms/services/platforms';
import { verifyWebhookSignature } from '../../src/security/webhook-signature';
import { Harness, type Api } from '../support/harness';
import type { ReceivedWebhook } from '../support/receiver';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

interface KeyView {
  id: string;
  publicKeyPem: string;
  validFrom: string;
  validUntil: string | null;
}

const signatureOf = (hook: ReceivedWebhook) => String(hook.headers['x-svc-signature']);

async function testHook(api: Api): Promise<ReceivedWebhook> {
  const res = await api.post('/webhooks/test');
  expect(res.status).toBe(200);
  return h.receiver.ofType('TEST').find((x) => x.body.id === res.body.id)!;
}

async function keysOf(api: Api): Promise<{ publicKeyPem: string; keys: KeyView[] }> {
  const res = await api.get('/webhooks/public-key');
  expect(res.status).toBe(200);
  return res.body as { publicKeyPem: string; keys: KeyView[] };
}

describe('each platform signs with its own key', () => {
  test("two platforms of one environment: B's delivery to A's receiver does not verify with A's key, and does with B's", async () => {
    const a = await h.platform();
    const b = await h.platform();
    const keyA = (await keysOf(a.api)).publicKeyPem;
    const keyB = (await keysOf(b.api)).publicKeyPem;
    expect(keyA).not.toBe(keyB);

    // B funds its own customer named like A's; its endpoint is the receiver A also uses.
    const customer = await b.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `alice-${Date.now()}`, fullName: 'Alice Victim' });
    expect(customer.status).toBe(201);
    const account = (await b.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&currency=USD`)).body.data[0].id as string;
    expect((await b.api.post(`/sandbox/internal-accounts/${account}/fund`, { amount: 5_000 })).status).toBe(200);
    await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'INCOMING_PAYMENT.COMPLETED' && x.body.data.customerId === customer.body.id));
    const forged = h.receiver.ofType('INCOMING_PAYMENT.COMPLETED').find((x) => x.body.data.customerId === customer.body.id)!;
    expect(verifyWebhookSignature(keyA, forged.rawBody, signatureOf(forged))).toBe(false);
    expect(verifyWebhookSignature(keyB, forged.rawBody, signatureOf(forged))).toBe(true);

    const own = await testHook(a.api);
    expect(verifyWebhookSignature(keyA, own.rawBody, signatureOf(own))).toBe(true);
    expect(verifyWebhookSignature(keyB, own.rawBody, signatureOf(own))).toBe(false);
  });

  test('the key is made with the platform, one per environment, and the environment-wide keys are gone', async () => {
    const { platform } = await h.platform();
    const em = h.orm.em.fork();
    const rows = await em.find(WebhookSigningKey, { platformId: platform.id }, { orderBy: { environment: 'asc' } });
    expect(rows.map((r) => [r.environment, r.generation, r.expiresAt ?? null])).toEqual([
      ['PRODUCTION', 1, null],
      ['SANDBOX', 1, null],
    ]);
    expect(rows[0]!.privateKeyEncrypted).not.toContain('PRIVATE KEY');
    const [legacy] = await em.getConnection().execute<{ table: string | null }[]>(`select to_regclass('signing_keys')::text as "table"`);
    expect(legacy!.table).toBeNull();
  });

  test('a platform without a key (made before per-platform keys) gets one on first use', async () => {
    const { api, platform } = await h.platform();
    await h.orm.em.fork().nativeDelete(WebhookSigningKey, { platformId: platform.id });
    const hook = await testHook(api);
    const { publicKeyPem, keys } = await keysOf(api);
    expect(keys).toHaveLength(1);
    expect(verifyWebhookSignature(publicKeyPem, hook.rawBody, signatureOf(hook))).toBe(true);
  });
});

describe('POST /webhooks/signing-keys/rotate', () => {
  test('during the overlap both keys sign: a receiver holding either verifies; the public-key endpoint shows both with their validity', async () => {
    const { api } = await h.platform();
    const before = await keysOf(api);
    expect(before.keys).toEqual([
      { id: expect.stringMatching(/^WebhookSigningKey:/), publicKeyPem: before.publicKeyPem, validFrom: expect.any(String), validUntil: null },
    ]);
    const oldKey = before.publicKeyPem;

    const started = Date.now();
    const rotated = await api.post('/webhooks/signing-keys/rotate', { overlapSeconds: 3_600 });
    expect(rotated.status).toBe(200);
    const [previous, current] = rotated.body.keys as KeyView[];
    expect(rotated.body.keys).toHaveLength(2);
    expect(previous!.publicKeyPem).toBe(oldKey);
    expect(Date.parse(previous!.validUntil!)).toBeGreaterThanOrEqual(started + 3_600_000 - 1_000);
    expect(Date.parse(previous!.validUntil!)).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1_000);
    expect(current!.validUntil).toBeNull();
    expect(current!.publicKeyPem).not.toBe(oldKey);
    // `publicKeyPem` stays the key of `s` (what receivers reading only `s` hold) until the overlap ends.
    expect(rotated.body.publicKeyPem).toBe(oldKey);
    expect((await keysOf(api)).keys).toEqual(rotated.body.keys);

    const hook = await testHook(api);
    expect(verifyWebhookSignature(oldKey, hook.rawBody, signatureOf(hook))).toBe(true);
    expect(verifyWebhookSignature(current!.publicKeyPem, hook.rawBody, signatureOf(hook))).toBe(true);
    // Backward compatible: `s` alone verifies with the key receivers already hold.
    const header = JSON.parse(signatureOf(hook)) as { v: string; s: string; sigs: { kid: string; s: string }[] };
    expect(header.v).toBe('1');
    expect(verifyWebhookSignature(oldKey, hook.rawBody, header.s)).toBe(true);
    expect(header.sigs.map((x) => x.kid)).toEqual([previous!.id, current!.id]);
    expect(hook.headers['x-grid-signature']).toBe(signatureOf(hook));
  });

  test('overlap 0 retires the old key at once; a new rotation ends an earlier overlap (at most two keys sign)', async () => {
    const { api } = await h.platform();
    const first = (await keysOf(api)).publicKeyPem;
    const second = (await api.post('/webhooks/signing-keys/rotate', { overlapSeconds: 0 })).body as { publicKeyPem: string; keys: KeyView[] };
    expect(second.keys).toHaveLength(1);
    expect(second.publicKeyPem).not.toBe(first);
    let hook = await testHook(api);
    expect(verifyWebhookSignature(first, hook.rawBody, signatureOf(hook))).toBe(false);
    expect(verifyWebhookSignature(second.publicKeyPem, hook.rawBody, signatureOf(hook))).toBe(true);
    expect(Object.keys(JSON.parse(signatureOf(hook)) as object)).toEqual(['v', 's']);

    expect((await api.post('/webhooks/signing-keys/rotate', { overlapSeconds: 600 })).status).toBe(200);
    const third = (await api.post('/webhooks/signing-keys/rotate', {})).body as { keys: KeyView[] };
    expect(third.keys).toHaveLength(2);
    expect(third.keys.map((k) => k.publicKeyPem)).not.toContain(second.publicKeyPem);
    hook = await testHook(api);
    expect(verifyWebhookSignature(second.publicKeyPem, hook.rawBody, signatureOf(hook))).toBe(false);
    // The default overlap is a day.
    expect(Date.parse(third.keys[0]!.validUntil!) - Date.now()).toBeGreaterThan(23 * 3_600_000);
  });

  test("a rotation changes only the caller's platform and environment", async () => {
    const a = await h.platform();
    const b = await h.platform();
    const prod = await createToken(h.orm.em.fork(), h.masterKey, a.platform.id, 'PRODUCTION');
    const prodAuth = `Basic ${Buffer.from(`${prod.tokenId}:${prod.clientSecret}`).toString('base64')}`;
    const prodKeys = async () => (await a.api.get('/webhooks/public-key').set('Authorization', prodAuth)).body as { environment: string; keys: KeyView[] };
    const [bBefore, prodBefore] = [await keysOf(b.api), await prodKeys()];
    expect(prodBefore.environment).toBe('PRODUCTION');
    expect((await a.api.post('/webhooks/signing-keys/rotate', { overlapSeconds: 60 })).status).toBe(200);
    expect(await keysOf(b.api)).toEqual(bBefore);
    expect(await prodKeys()).toEqual(prodBefore);
  });

  test('a retry with the same Idempotency-Key does not rotate again (which would end the overlap)', async () => {
    const { api, platform } = await h.platform();
    const first = await api.post('/webhooks/signing-keys/rotate', { overlapSeconds: 600 }, { 'Idempotency-Key': 'rotate-1' });
    const again = await api.post('/webhooks/signing-keys/rotate', { overlapSeconds: 600 }, { 'Idempotency-Key': 'rotate-1' });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    expect(await h.orm.em.fork().count(WebhookSigningKey, { platformId: platform.id, environment: 'SANDBOX' })).toBe(2);
  });

  test('rotations at once take turns: each makes its own generation', async () => {
    const { api, platform } = await h.platform();
    const results = await Promise.all([1, 2, 3].map(() => api.post('/webhooks/signing-keys/rotate', { overlapSeconds: 60 })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const rows = await h.orm.em.fork().find(WebhookSigningKey, { platformId: platform.id, environment: 'SANDBOX' }, { orderBy: { generation: 'asc' } });
    expect(rows.map((r) => r.generation)).toEqual([1, 2, 3, 4]);
    expect((await keysOf(api)).keys).toHaveLength(2);
  });

  test.each([
    [{ overlapSeconds: -1 }, 'overlapSeconds'],
    [{ overlapSeconds: 1.5 }, 'overlapSeconds'],
    [{ overlapSeconds: 31 * 24 * 3_600 }, 'overlapSeconds'],
    [{ overlapSeconds: '60' }, 'overlapSeconds'],
    [{ overlap: 60 }, 'body'],
  ])('refuses %j with 400 INVALID_INPUT naming %s; nothing rotated', async (body, field) => {
    const { api } = await h.platform();
    const before = await keysOf(api);
    const res = await api.post('/webhooks/signing-keys/rotate', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    expect(await keysOf(api)).toEqual(before);
  });
});

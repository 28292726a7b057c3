import { Customer } from '../../src/contexts/customers/entities';
import { createToken } from '../../src/contexts/platforms/services/platforms';
import { ScaFactor, ScaFactorReset } from '../../src/contexts/sca/entities';
import { Api, Harness } from '../support/harness';
import { eventually } from '../support/eventually';
import { scaCustomer } from '../support/sca/fixtures';
import { ScaClient } from '../support/sca/sca-client';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

const em = () => h.orm.em.fork();

/** Moves a reset's start into the past, so that the sandbox's simulated liveness check has passed. */
async function livenessPassed(resetId: string) {
  await em().nativeUpdate(ScaFactorReset, { id: resetId }, { createdAt: new Date(Date.now() - 3_000) });
}

describe('resetting a lost authenticator app', () => {
  test('start (201), poll through the simulated liveness check, complete (204): the TOTP is gone and can be enrolled again', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    await client.enrolTotp();
    const started = await api.post(client.path('/sca/factors/reset'), { factor: 'TOTP' });
    expect(started.status).toBe(201);
    expect(started.body).toEqual({ resetId: expect.stringMatching(/^ScaReset:/), livenessAccessToken: expect.any(String), expiresAt: expect.any(String) });
    const path = client.path(`/sca/factors/reset/${started.body.resetId}`);
    const first = await api.get(path);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'INITIATED',
      factor: 'TOTP',
      enrollmentStatus: 'PENDING',
      expiresAt: started.body.expiresAt,
      completedAt: null,
    });

    // Completing before the liveness check passed is refused.
    const early = await api.post(client.path(`/sca/factors/reset/${started.body.resetId}/complete`), {});
    expect(early.status).toBe(400);
    expect(early.body.details.errors[0]).toMatchObject({ field: 'resetId', constraint: { rule: 'not_ready' } });

    // The sandbox's liveness check passes by itself two seconds after the start.
    const passed = await eventually(
      () => api.get(path),
      (r) => r.body.status === 'LIVENESS_PASSED',
    );
    expect(passed.body.status).toBe('LIVENESS_PASSED');
    const done = await api.post(client.path(`/sca/factors/reset/${started.body.resetId}/complete`), {});
    expect(done.status).toBe(204);
    expect(await em().count(ScaFactor, { customerId: client.customerId, type: 'TOTP' })).toBe(0);
    const completed = await api.get(path);
    expect(completed.body).toMatchObject({ status: 'COMPLETED', enrollmentStatus: 'PENDING', completedAt: expect.any(String) });

    await client.enrolTotp();
    expect((await api.get(path)).body.enrollmentStatus).toBe('COMPLETED');
    // A completed reset is not completed twice.
    expect((await api.post(client.path(`/sca/factors/reset/${started.body.resetId}/complete`), {})).status).toBe(400);
  });

  test('a factor the customer does not hold cannot be reset (400 on factor)', async () => {
    const { api, client } = await scaCustomer(h);
    const res = await api.post(client.path('/sca/factors/reset'), { factor: 'PASSKEY' });
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0]).toMatchObject({ field: 'factor', constraint: { rule: 'not_enrolled' } });
    expect(await em().count(ScaFactorReset, { customerId: client.customerId })).toBe(0);
  });

  test('a reset whose window closed is EXPIRED and cannot be completed', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    await client.enrolPasskey();
    const { resetId } = (await api.post(client.path('/sca/factors/reset'), { factor: 'PASSKEY' })).body;
    await em().nativeUpdate(ScaFactorReset, { id: resetId }, { createdAt: new Date(Date.now() - 3_600_000), expiresAt: new Date(Date.now() - 1000) });
    expect((await api.get(client.path(`/sca/factors/reset/${resetId}`))).body.status).toBe('EXPIRED');
    expect((await api.post(client.path(`/sca/factors/reset/${resetId}/complete`), {})).status).toBe(400);
    expect(await em().count(ScaFactor, { customerId: client.customerId, type: 'PASSKEY' })).toBe(1);
  });

  test('a passkey reset removes the passkey', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    await client.enrolPasskey();
    const { resetId } = (await api.post(client.path('/sca/factors/reset'), { factor: 'PASSKEY' })).body;
    await livenessPassed(resetId);
    expect((await api.post(client.path(`/sca/factors/reset/${resetId}/complete`), {})).status).toBe(204);
    expect(await em().count(ScaFactor, { customerId: client.customerId, type: 'PASSKEY' })).toBe(0);
  });
});

describe('resetting SMS_OTP (a lost phone)', () => {
  test('the new mobile number is required; it becomes the customer’s phone, to be verified before codes go to it', async () => {
    const { api, client } = await scaCustomer(h);
    const { resetId } = (await api.post(client.path('/sca/factors/reset'), { factor: 'SMS_OTP' })).body;
    expect((await api.get(client.path(`/sca/factors/reset/${resetId}`))).body.enrollmentStatus).toBeNull();
    await livenessPassed(resetId);
    const without = await api.post(client.path(`/sca/factors/reset/${resetId}/complete`), {});
    expect(without.status).toBe(400);
    expect(without.body.details.errors[0].field).toBe('mobile');
    const bad = await api.post(client.path(`/sca/factors/reset/${resetId}/complete`), { mobile: { countryCode: '44', number: '77x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['mobile.countryCode', 'mobile.number']);

    const done = await api.post(client.path(`/sca/factors/reset/${resetId}/complete`), { mobile: { countryCode: '+44', number: '7700900123' } });
    expect(done.status).toBe(204);
    const customer = await em().findOneOrFail(Customer, { id: client.customerId });
    expect(customer.phoneNumber).toBe('+447700900123');
    expect(customer.contactVerification?.phone).toBe('PENDING');
    expect((await api.get(client.path('/sca/factors'))).body).toEqual({ factors: [] });
    await client.verifyPhone();
    expect((await api.get(client.path('/sca/factors'))).body).toEqual({ factors: [{ factor: 'SMS_OTP' }] });
  });
});

describe('limits and environments', () => {
  test('at most five resets per customer in 24 hours: the sixth is 429 RATE_LIMITED with Retry-After', async () => {
    const { api, client } = await scaCustomer(h);
    for (let i = 0; i < 5; i++) expect((await api.post(client.path('/sca/factors/reset'), { factor: 'SMS_OTP' })).status).toBe(201);
    const sixth = await api.post(client.path('/sca/factors/reset'), { factor: 'SMS_OTP' });
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe('RATE_LIMITED');
    const wait = Number(sixth.headers['retry-after']);
    expect(wait).toBeGreaterThan(24 * 3600 - 120);
    expect(wait).toBeLessThanOrEqual(24 * 3600);
    expect(await em().count(ScaFactorReset, { customerId: client.customerId })).toBe(5);
    // Once the oldest start is more than a day old, one more may start.
    const [oldest] = await em().find(ScaFactorReset, { customerId: client.customerId }, { orderBy: { createdAt: 'asc' }, limit: 1 });
    await em().nativeUpdate(ScaFactorReset, { id: oldest!.id }, { createdAt: new Date(Date.now() - 25 * 3600_000) });
    expect((await api.post(client.path('/sca/factors/reset'), { factor: 'SMS_OTP' })).status).toBe(201);
  });

  test('production: no liveness provider ships with the service: 501 and nothing stored', async () => {
    const { platform, client } = await scaCustomer(h);
    const prod = await createToken(em(), h.masterKey, platform.id, 'PRODUCTION');
    const api = new Api(h.app, `Basic ${Buffer.from(`${prod.tokenId}:${prod.clientSecret}`).toString('base64')}`);
    const res = await api.post(client.path('/sca/factors/reset'), { factor: 'SMS_OTP' });
    expect(res.status).toBe(501);
    expect(res.body.details).toEqual({ liveness: 'NOT_CONFIGURED' });
    expect(await em().count(ScaFactorReset, { customerId: client.customerId })).toBe(0);
  });
});

describe('tenant isolation', () => {
  test("another platform can neither start, read nor complete a customer's reset (404), nor use up its allowance", async () => {
    const a = await scaCustomer(h, { loggedIn: true });
    await a.client.enrolTotp();
    const { resetId } = (await a.api.post(a.client.path('/sca/factors/reset'), { factor: 'TOTP' })).body;
    await livenessPassed(resetId);
    const b = await h.platform({ region: 'EU' });
    const intruder = new ScaClient(b.api, a.customerId);
    const calls = [
      ...Array.from({ length: 6 }, () => b.api.post(intruder.path('/sca/factors/reset'), { factor: 'SMS_OTP' })),
      b.api.get(intruder.path(`/sca/factors/reset/${resetId}`)),
      b.api.post(intruder.path(`/sca/factors/reset/${resetId}/complete`), {}),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('USER_NOT_FOUND');
    }
    // B's own customer cannot reach A's reset either.
    const own = await scaCustomer(h);
    expect((await own.api.get(own.client.path(`/sca/factors/reset/${resetId}`))).status).toBe(404);
    expect((await own.api.post(own.client.path(`/sca/factors/reset/${resetId}/complete`), {})).status).toBe(404);
    expect(await em().count(ScaFactorReset, { customerId: a.customerId })).toBe(1);
    expect(await em().count(ScaFactor, { customerId: a.customerId, type: 'TOTP' })).toBe(1);
    expect((await a.api.post(a.client.path('/sca/factors/reset'), { factor: 'SMS_OTP' })).status).toBe(201);
  });
});

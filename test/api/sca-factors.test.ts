import { ScaChallenge, ScaFactor, ScaSession } from '../../src/contexts/sca/entities';
import { hashRecoveryCode } from '../../src/contexts/sca/domain/recovery-codes';
import { decrypt } from '../../src/security/secrets';
import { Harness } from '../support/harness';
import { seedCustomer } from '../support/onboarding-seed';
import { scaCustomer } from '../support/sca/fixtures';
import { ScaClient, totpCode } from '../support/sca/sca-client';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

const em = () => h.orm.em.fork();

describe('who may use SCA', () => {
  test('a customer outside an SCA region gets 409 CONFLICT on every SCA operation, and nothing is stored', async () => {
    const { api, platform } = await h.platform({ region: 'US' });
    const { customer } = await seedCustomer(h, platform.id);
    const q = `customerId=${encodeURIComponent(customer.id)}`;
    const calls = [
      api.get(`/sca/factors?${q}`),
      api.post(`/sca/factors?${q}`, { type: 'TOTP' }),
      api.post(`/sca/factors/confirm?${q}`, { type: 'TOTP', secret: 'JBSWY3DPEHPK3PXP', code: '123456' }),
      api.delete(`/sca/factors/abc?${q}`),
      api.post(`/sca/login/start?${q}`, { factor: 'SMS_OTP' }),
      api.post(`/sca/login/complete?${q}`, { factor: 'SMS_OTP', code: '123456', challengeId: 'ScaChallenge:x', endUserIpAddress: '203.0.113.1' }),
      api.post(`/sca/record-event?${q}`, { eventType: 'FAILED_LOGIN_ATTEMPT' }),
      api.post(`/sca/factors/reset?${q}`, { factor: 'SMS_OTP' }),
      api.get(`/sca/factors/reset/ScaReset:00000000-0000-4000-8000-000000000000?${q}`),
      api.post(`/sca/factors/reset/ScaReset:00000000-0000-4000-8000-000000000000/complete?${q}`, {}),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'CONFLICT', reason: expect.stringContaining('not required') });
    }
    expect(await em().count(ScaChallenge, { customerId: customer.id })).toBe(0);
    expect(await em().count(ScaFactor, { customerId: customer.id })).toBe(0);
  });

  test('UK customers, and EEA customers of a US platform, need SCA', async () => {
    const uk = await scaCustomer(h, { region: 'UK' });
    expect((await uk.api.get(uk.client.path('/sca/factors'))).status).toBe(200);
    const { api, platform } = await h.platform({ region: 'US' });
    const { customer } = await seedCustomer(h, platform.id, { regionCode: 'FR' });
    expect((await api.get(new ScaClient(api, customer.id).path('/sca/factors'))).status).toBe(200);
  });

  test('the customer id is required in the query (400), an unknown one is 404 USER_NOT_FOUND', async () => {
    const { api } = await scaCustomer(h);
    const missing = await api.get('/sca/factors');
    expect(missing.status).toBe(400);
    expect(missing.body.details.errors).toEqual([expect.objectContaining({ field: 'customerId' })]);
    const unknown = await api.get('/sca/factors?customerId=Customer:00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('USER_NOT_FOUND');
  });
});

describe('listing factors', () => {
  test('SMS_OTP is listed once the phone is verified; enrolled factors follow', async () => {
    const { api, client } = await scaCustomer(h, { phoneVerified: false });
    expect((await api.get(client.path('/sca/factors'))).body).toEqual({ factors: [] });
    await client.verifyPhone();
    expect((await api.get(client.path('/sca/factors'))).body).toEqual({ factors: [{ factor: 'SMS_OTP' }] });
    await client.loginWithSms();
    await client.enrolTotp();
    const passkey = await client.enrolPasskey();
    expect((await api.get(client.path('/sca/factors'))).body).toEqual({
      factors: [{ factor: 'SMS_OTP' }, { factor: 'TOTP' }, { factor: 'PASSKEY', credentialId: passkey.credentialId, name: 'Passkey' }],
    });
  });
});

describe('TOTP enrolment', () => {
  test('needs a live SCA session: 409 SCA_SESSION_REQUIRED before the customer logged in', async () => {
    const { api, client } = await scaCustomer(h);
    const res = await api.post(client.path('/sca/factors'), { type: 'TOTP' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('SCA_SESSION_REQUIRED');
    expect(await em().count(ScaFactor, { customerId: client.customerId })).toBe(0);
  });

  test('start gives the secret and its URI; confirm with the app code gives recovery codes; the secret is sealed, codes hashed', async () => {
    const { api, client, platform } = await scaCustomer(h, { loggedIn: true });
    const started = await api.post(client.path('/sca/factors'), { type: 'TOTP' });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({
      type: 'TOTP',
      secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
      secretBase32Encoded: started.body.secret,
      totpUri: expect.any(String),
    });
    expect(started.body.totpUri).toMatch(new RegExp(`^otpauth://totp/.*secret=${started.body.secret}`));
    expect(started.body.totpUri).toContain(encodeURIComponent(platform.name));

    const pending = await em().findOneOrFail(ScaFactor, { customerId: client.customerId, type: 'TOTP' });
    expect(pending.status).toBe('PENDING');
    expect(pending.sealedTotpSecret).not.toContain(started.body.secret);
    expect(decrypt(h.masterKey, pending.sealedTotpSecret!)).toBe(started.body.secret);

    const confirmed = await api.post(client.path('/sca/factors/confirm'), { type: 'TOTP', secret: started.body.secret, code: totpCode(started.body.secret) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.type).toBe('TOTP');
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    const active = await em().findOneOrFail(ScaFactor, { id: pending.id });
    expect(active.status).toBe('ACTIVE');
    expect(active.recoveryCodeHashes).toEqual(confirmed.body.recoveryCodes.map((c: string) => hashRecoveryCode(h.masterKey, pending.id, c)));
    expect(JSON.stringify(active)).not.toContain(confirmed.body.recoveryCodes[0]);
  });

  test('a wrong code is refused (400, field code) and the factor stays pending; the wrong secret is not pending', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    const started = await api.post(client.path('/sca/factors'), { type: 'TOTP' });
    const right = totpCode(started.body.secret);
    const wrong = right === '000001' ? '000002' : '000001';
    const res = await api.post(client.path('/sca/factors/confirm'), { type: 'TOTP', secret: started.body.secret, code: wrong });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: 'code', constraint: { rule: 'invalid' } }] } });
    expect(JSON.stringify(res.body)).not.toContain(right);
    const other = await api.post(client.path('/sca/factors/confirm'), { type: 'TOTP', secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', code: right });
    expect(other.status).toBe(400);
    expect(other.body.details.errors[0]).toMatchObject({ field: 'secret', constraint: { rule: 'not_requested' } });
    expect((await em().findOneOrFail(ScaFactor, { customerId: client.customerId, type: 'TOTP' })).status).toBe('PENDING');
  });

  test('a second authenticator app is refused (409 CONFLICT): a lost one is reset', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    await client.enrolTotp();
    const res = await api.post(client.path('/sca/factors'), { type: 'TOTP' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
  });

  test('SMS_OTP is not enrolled (400 on type)', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    const res = await api.post(client.path('/sca/factors'), { type: 'SMS_OTP' });
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0].field).toBe('type');
  });
});

describe('passkey enrolment', () => {
  test('options for the platform relying party; the attestation enrols the passkey with its key and counter', async () => {
    const { api, client, umaDomain } = await scaCustomer(h, { loggedIn: true });
    const started = await api.post(client.path('/sca/factors'), { type: 'PASSKEY' });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ type: 'PASSKEY', relyingPartyId: umaDomain, allowedOrigins: [`https://${umaDomain}`] });
    expect(started.body.options).toMatchObject({
      rp: { id: umaDomain },
      challenge: expect.any(String),
      authenticatorSelection: { userVerification: 'required' },
    });
    const origin = started.body.allowedOrigins[0];
    const confirmed = await api.post(client.path('/sca/factors/confirm'), {
      type: 'PASSKEY',
      origin,
      credential: client.authenticator.attest(started.body.options, origin),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ type: 'PASSKEY', factor: { factor: 'PASSKEY', credentialId: client.authenticator.credentialId, name: 'Passkey' } });
    const row = await em().findOneOrFail(ScaFactor, { customerId: client.customerId, type: 'PASSKEY' });
    expect(row).toMatchObject({ status: 'ACTIVE', credentialId: client.authenticator.credentialId, passkeyCounter: 0n });
    expect(row.passkeyPublicKey).toEqual(expect.any(String));
  });

  test('a second passkey is refused: 409 PASSKEY_ALREADY_ENROLLED', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    await client.enrolPasskey();
    const res = await api.post(client.path('/sca/factors'), { type: 'PASSKEY' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('PASSKEY_ALREADY_ENROLLED');
  });

  test.each([
    ['an origin the relying party does not allow', { origin: 'https://evil.example' }, 'origin'],
    ['a challenge other than the one issued', { challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, 'credential'],
    ['another relying party', { rpId: 'evil.example' }, 'credential'],
    ['no user verification', { withoutUserVerification: true }, 'credential'],
  ])('an attestation with %s is refused (400) and nothing is enrolled', async (_what, knobs, field) => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    const started = await api.post(client.path('/sca/factors'), { type: 'PASSKEY' });
    const allowed = started.body.allowedOrigins[0];
    const credential = client.authenticator.attest(started.body.options, allowed, knobs);
    const res = await api.post(client.path('/sca/factors/confirm'), { type: 'PASSKEY', origin: (knobs as { origin?: string }).origin ?? allowed, credential });
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0].field).toBe(field);
    expect(await em().count(ScaFactor, { customerId: client.customerId, type: 'PASSKEY' })).toBe(0);
  });

  test('the origin named must be the one the credential was made on', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    const started = await api.post(client.path('/sca/factors'), { type: 'PASSKEY' });
    const credential = client.authenticator.attest(started.body.options, 'https://evil.example');
    const res = await api.post(client.path('/sca/factors/confirm'), { type: 'PASSKEY', origin: started.body.allowedOrigins[0], credential });
    expect(res.status).toBe(400);
  });
});

describe('deleting a passkey', () => {
  test('by credential id, logged in: 204, then it is gone (404)', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    const { credentialId } = await client.enrolPasskey();
    const path = client.path(`/sca/factors/${encodeURIComponent(credentialId)}`);
    expect((await api.delete(path)).status).toBe(204);
    expect(await em().count(ScaFactor, { customerId: client.customerId, type: 'PASSKEY' })).toBe(0);
    const again = await api.delete(path);
    expect(again.status).toBe(404);
    // A new passkey may now be enrolled.
    expect((await api.post(client.path('/sca/factors'), { type: 'PASSKEY' })).status).toBe(200);
  });

  test('needs a live SCA session: an expired one is 409 SCA_SESSION_REQUIRED and the passkey stays', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    const { credentialId } = await client.enrolPasskey();
    await em().nativeUpdate(ScaSession, { customerId: client.customerId }, { expiresAt: new Date(Date.now() - 1000) });
    const res = await api.delete(client.path(`/sca/factors/${encodeURIComponent(credentialId)}`));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('SCA_SESSION_REQUIRED');
    expect(await em().count(ScaFactor, { customerId: client.customerId, type: 'PASSKEY' })).toBe(1);
  });
});

describe('tenant isolation', () => {
  test("another platform sees none of a customer's factors and can change none of them (404 everywhere)", async () => {
    const a = await scaCustomer(h, { loggedIn: true });
    await a.client.enrolTotp();
    const { credentialId } = await a.client.enrolPasskey();
    const b = await h.platform({ region: 'EU' });
    const intruder = new ScaClient(b.api, a.customerId);
    const calls = [
      b.api.get(intruder.path('/sca/factors')),
      b.api.post(intruder.path('/sca/factors'), { type: 'TOTP' }),
      b.api.post(intruder.path('/sca/factors/confirm'), { type: 'TOTP', secret: a.client.totpSecret, code: totpCode(a.client.totpSecret!) }),
      b.api.delete(intruder.path(`/sca/factors/${encodeURIComponent(credentialId)}`)),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('USER_NOT_FOUND');
    }
    expect(await em().count(ScaFactor, { customerId: a.customerId, status: 'ACTIVE' })).toBe(2);
  });

  test("a passkey credential id another platform's customer uses does not clash (ids are unique per platform)", async () => {
    const a = await scaCustomer(h, { loggedIn: true });
    await a.client.enrolPasskey();
    const b = await scaCustomer(h, { loggedIn: true });
    // The same authenticator (and so the same credential id) on another platform's customer.
    const reused = new ScaClient(b.api, b.customerId);
    Object.assign(reused, { authenticator: a.client.authenticator });
    await expect(reused.enrolPasskey()).resolves.toMatchObject({ credentialId: a.client.authenticator.credentialId });
  });
});

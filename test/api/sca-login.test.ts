import { createApp } from '../../src/api/app';
import type { ScaCodeSender } from '../../src/contexts/sca';
import { ScaChallenge, ScaCodeSend, ScaFactor, ScaSecurityState, ScaSession } from '../../src/contexts/sca/entities';
import { hashScaCode } from '../../src/contexts/sca/domain/one-time-codes';
import { createToken } from '../../src/contexts/platforms/services/platforms';
import { Api, Harness } from '../support/harness';
import { scaCustomer } from '../support/sca/fixtures';
import { SANDBOX_CODE, ScaClient, totpCode } from '../support/sca/sca-client';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

const em = () => h.orm.em.fork();
const IP = '203.0.113.42';
const DAY = 24 * 60 * 60 * 1000;

async function smsStart(api: Api, client: ScaClient) {
  const res = await api.post(client.path('/sca/login/start'), { factor: 'SMS_OTP' });
  expect(res.status).toBe(200);
  return res.body as { factor: string; challengeId: string; expiresAt: string };
}

function complete(api: Api, client: ScaClient, body: Record<string, unknown>) {
  return api.post(client.path('/sca/login/complete'), { endUserIpAddress: IP, ...body });
}

function expectProofRefused(res: { status: number; body: Record<string, unknown> }, field: string, rule: string) {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field, constraint: { rule } }] } });
}

describe('SMS_OTP login', () => {
  test('start sends a code (sandbox: 123456, stored as a keyed hash); complete opens a 180-day session', async () => {
    const { api, client } = await scaCustomer(h);
    const started = await smsStart(api, client);
    expect(started).toEqual({ factor: 'SMS_OTP', challengeId: expect.stringMatching(/^ScaChallenge:/), expiresAt: expect.any(String) });
    expect(Date.parse(started.expiresAt) - Date.now()).toBeGreaterThan(4 * 60 * 1000);
    const row = await em().findOneOrFail(ScaChallenge, { id: started.challengeId });
    expect(row).toMatchObject({ purpose: 'LOGIN', factor: 'SMS_OTP', codeHash: hashScaCode(h.masterKey, started.challengeId, SANDBOX_CODE), attempts: 0 });

    const done = await complete(api, client, { factor: 'SMS_OTP', challengeId: started.challengeId, code: SANDBOX_CODE });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'SUCCESS', sessionExpiresAt: expect.any(String) });
    expect(Math.abs(Date.parse(done.body.sessionExpiresAt) - Date.now() - 180 * DAY)).toBeLessThan(60_000);
    const session = await em().findOneOrFail(ScaSession, { customerId: client.customerId });
    expect(session).toMatchObject({ factor: 'SMS_OTP', endUserIpAddress: IP, revokedAt: null });
    expect((await em().findOneOrFail(ScaChallenge, { id: started.challengeId })).consumedAt).toBeInstanceOf(Date);
  });

  test('a wrong code is refused with the attempts left, and never shows the right one', async () => {
    const { api, client } = await scaCustomer(h);
    const { challengeId } = await smsStart(api, client);
    const res = await complete(api, client, { factor: 'SMS_OTP', challengeId, code: '654321' });
    expectProofRefused(res, 'code', 'invalid');
    expect(res.body.details.errors[0].message).toContain('4 attempts left');
    expect(JSON.stringify(res.body)).not.toContain(SANDBOX_CODE);
    expect(await em().count(ScaSession, { customerId: client.customerId })).toBe(0);
    // Still answerable with the right code.
    expect((await complete(api, client, { factor: 'SMS_OTP', challengeId, code: SANDBOX_CODE })).status).toBe(200);
  });

  test('a used challenge is not accepted again', async () => {
    const { api, client } = await scaCustomer(h);
    const { challengeId } = await smsStart(api, client);
    expect((await complete(api, client, { factor: 'SMS_OTP', challengeId, code: SANDBOX_CODE })).status).toBe(200);
    expectProofRefused(await complete(api, client, { factor: 'SMS_OTP', challengeId, code: SANDBOX_CODE }), 'challengeId', 'not_requested');
    expect(await em().count(ScaSession, { customerId: client.customerId })).toBe(1);
  });

  test('an expired code is refused, even the right one', async () => {
    const { api, client } = await scaCustomer(h);
    const { challengeId } = await smsStart(api, client);
    await em().nativeUpdate(ScaChallenge, { id: challengeId }, { expiresAt: new Date(Date.now() - 1000) });
    expectProofRefused(await complete(api, client, { factor: 'SMS_OTP', challengeId, code: SANDBOX_CODE }), 'challengeId', 'expired');
  });

  test('a challenge of another purpose (a passkey enrolment, a quote) does not log in; a missing challengeId is 400', async () => {
    const { api, client } = await scaCustomer(h);
    const { challengeId } = await smsStart(api, client);
    await em().nativeUpdate(ScaChallenge, { id: challengeId }, { purpose: 'QUOTE' });
    expectProofRefused(await complete(api, client, { factor: 'SMS_OTP', challengeId, code: SANDBOX_CODE }), 'challengeId', 'not_requested');
    const missing = await complete(api, client, { factor: 'SMS_OTP', code: SANDBOX_CODE });
    expectProofRefused(missing, 'challengeId', 'required');
    // It names what is missing: the code was sent, the challenge it answers was not.
    expect(missing.body.reason).toBe('The challengeId is missing');
    const fresh = await smsStart(api, client);
    expect((await complete(api, client, { factor: 'SMS_OTP', challengeId: fresh.challengeId })).body.reason).toBe('The SCA proof is missing its code');
  });

  test('without a verified phone SMS_OTP is not available (400 on factor)', async () => {
    const { api, client } = await scaCustomer(h, { phoneVerified: false });
    const res = await api.post(client.path('/sca/login/start'), { factor: 'SMS_OTP' });
    expectProofRefused(res, 'factor', 'unavailable');
    expect(await em().count(ScaChallenge, { customerId: client.customerId })).toBe(0);
  });

  test('production: a random code goes through the SMS sender, stored only as a keyed hash; without a sender 501 and nothing stored', async () => {
    const { platform, customerId, client } = await scaCustomer(h);
    const prod = await createToken(em(), h.masterKey, platform.id, 'PRODUCTION');
    const auth = `Basic ${Buffer.from(`${prod.tokenId}:${prod.clientSecret}`).toString('base64')}`;
    const none = await new Api(h.app, auth).post(client.path('/sca/login/start'), { factor: 'SMS_OTP' });
    expect(none.status).toBe(501);
    expect(none.body.details).toEqual({ channel: 'phone', delivery: 'NOT_CONFIGURED' });
    expect(await em().count(ScaChallenge, { customerId })).toBe(0);

    const sent: Parameters<ScaCodeSender>[0][] = [];
    const api = new Api(createApp({ ...h.deps, scaCodeSender: async (m) => void sent.push(m) }), auth);
    const started = await smsStart(api, client);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: '+4915112345678', customerId, platformId: platform.id, purpose: 'LOGIN', code: expect.stringMatching(/^\d{6}$/) });
    const row = await em().findOneOrFail(ScaChallenge, { id: started.challengeId });
    expect(row.codeHash).toBe(hashScaCode(h.masterKey, started.challengeId, sent[0]!.code));
    if (sent[0]!.code !== SANDBOX_CODE) {
      expectProofRefused(await complete(api, client, { factor: 'SMS_OTP', challengeId: started.challengeId, code: SANDBOX_CODE }), 'code', 'invalid');
    }
    expect((await complete(api, client, { factor: 'SMS_OTP', challengeId: started.challengeId, code: sent[0]!.code })).status).toBe(200);
  });
});

describe('how often SMS codes are sent', () => {
  test('five SMS login starts per customer in 15 minutes: the sixth is 429 with Retry-After, sends and stores nothing; another customer is not held back', async () => {
    const { api, client } = await scaCustomer(h);
    for (let i = 0; i < 5; i++) await smsStart(api, client);
    const challenges = await em().count(ScaChallenge, { customerId: client.customerId });
    const refused = await api.post(client.path('/sca/login/start'), { factor: 'SMS_OTP' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } });
    expect(Number(refused.headers['retry-after'])).toBe(refused.body.details.retryAfterSeconds);
    expect(await em().count(ScaChallenge, { customerId: client.customerId })).toBe(challenges);
    const other = await scaCustomer(h);
    await smsStart(other.api, other.client);
  });

  test('five concurrent starts beyond the allowance: exactly the allowance is sent', async () => {
    const { api, client } = await scaCustomer(h);
    for (let i = 0; i < 3; i++) await smsStart(api, client);
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.post(client.path('/sca/login/start'), { factor: 'SMS_OTP' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429, 429, 429]);
    expect(await em().count(ScaCodeSend, { customerId: client.customerId })).toBe(5);
  });
});

describe('TOTP login', () => {
  test('the current code of the app logs in; the same code again is refused as reused; a wrong one as invalid', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    await client.enrolTotp();
    expect((await api.post(client.path('/sca/login/start'), { factor: 'TOTP' })).body).toEqual({ factor: 'TOTP' });
    // The enrolment used the current step: the next code is the next step's.
    const next = totpCode(client.totpSecret!, new Date(Date.now() + 30_000));
    expect((await complete(api, client, { factor: 'TOTP', code: next })).status).toBe(200);
    expectProofRefused(await complete(api, client, { factor: 'TOTP', code: next }), 'code', 'reused');
    const wrong = next === '000000' ? '000001' : '000000';
    const res = await complete(api, client, { factor: 'TOTP', code: wrong });
    expectProofRefused(res, 'code', 'invalid');
    expect(JSON.stringify(res.body)).not.toContain(totpCode(client.totpSecret!));
  });

  test('a recovery code logs in once in place of a TOTP code (its device lost); used, or made up, it is refused and counted', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    const codes = await client.enrolTotp();
    const failuresBefore = (await em().findOne(ScaSecurityState, { customerId: client.customerId }))?.failedAttempts ?? 0;
    const used = await complete(api, client, { factor: 'TOTP', code: codes[3]!.toLowerCase() });
    expect([used.status, used.body.status]).toEqual([200, 'SUCCESS']);
    expectProofRefused(await complete(api, client, { factor: 'TOTP', code: codes[3] }), 'code', 'invalid');
    expectProofRefused(await complete(api, client, { factor: 'TOTP', code: 'ABCD-EFGH-JKMN' }), 'code', 'invalid');
    expect((await em().findOneOrFail(ScaSecurityState, { customerId: client.customerId })).failedAttempts).toBe(failuresBefore + 2);
    // One code is spent; the other nine still work, each once.
    const factor = await em().findOneOrFail(ScaFactor, { customerId: client.customerId, type: 'TOTP', status: 'ACTIVE' });
    expect(factor.recoveryCodeHashes).toHaveLength(9);
    expect((await complete(api, client, { factor: 'TOTP', code: codes[4] })).status).toBe(200);
  });

  test('without an enrolled app TOTP is not available', async () => {
    const { api, client } = await scaCustomer(h);
    expectProofRefused(await api.post(client.path('/sca/login/start'), { factor: 'TOTP' }), 'factor', 'unavailable');
    expectProofRefused(await complete(api, client, { factor: 'TOTP', code: '123456' }), 'factor', 'not_enrolled');
  });
});

describe('passkey login', () => {
  async function passkeyCustomer() {
    const c = await scaCustomer(h, { loggedIn: true });
    await c.client.enrolPasskey();
    return c;
  }
  async function passkeyStart(api: Api, client: ScaClient) {
    const res = await api.post(client.path('/sca/login/start'), { factor: 'PASSKEY' });
    expect(res.status).toBe(200);
    return res.body;
  }

  test('assertion options for the enrolled passkey; a good assertion logs in and raises the stored counter', async () => {
    const { api, client, umaDomain } = await passkeyCustomer();
    const started = await passkeyStart(api, client);
    expect(started).toMatchObject({ factor: 'PASSKEY', relyingPartyId: umaDomain, allowedOrigins: [`https://${umaDomain}`] });
    expect(started.passkeyOptions).toMatchObject({
      rpId: umaDomain,
      userVerification: 'required',
      allowCredentials: [{ id: client.authenticator.credentialId }],
    });
    const origin = started.allowedOrigins[0];
    const assertion = client.authenticator.assert(started.passkeyOptions, origin);
    const done = await complete(api, client, { factor: 'PASSKEY', challengeId: started.challengeId, passkeyAssertion: assertion, origin });
    expect(done.status).toBe(200);
    expect((await em().findOneOrFail(ScaFactor, { customerId: client.customerId, type: 'PASSKEY' })).passkeyCounter).toBe(1n);
  });

  test('a client built from the reference: start shows no challengeId, the assertion alone completes the login, once', async () => {
    const { api, client } = await passkeyCustomer();
    const started = await passkeyStart(api, client);
    expect(started).not.toHaveProperty('challengeId');
    expect(started).not.toHaveProperty('expiresAt');
    const origin = started.allowedOrigins[0];
    const assertion = client.authenticator.assert(started.passkeyOptions, origin);
    const done = await complete(api, client, { factor: 'PASSKEY', passkeyAssertion: assertion, origin });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'SUCCESS', sessionExpiresAt: expect.any(String) });
    const [login] = await em().find(ScaChallenge, { customerId: client.customerId, purpose: 'LOGIN', factor: 'PASSKEY' });
    expect(login!.consumedAt).toBeInstanceOf(Date);
    // Replayed, the same assertion finds its challenge used: refused, nothing opened.
    const sessions = await em().count(ScaSession, { customerId: client.customerId });
    const again = client.authenticator.assert(started.passkeyOptions, origin);
    expectProofRefused(await complete(api, client, { factor: 'PASSKEY', passkeyAssertion: again, origin }), 'passkeyAssertion', 'not_requested');
    expect(await em().count(ScaSession, { customerId: client.customerId })).toBe(sessions);
  });

  test('without challengeId, an assertion over a challenge never issued, or issued for another purpose, does not log in', async () => {
    const { api, client } = await passkeyCustomer();
    const started = await passkeyStart(api, client);
    const origin = started.allowedOrigins[0];
    const forged = client.authenticator.assert(started.passkeyOptions, origin, { challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expectProofRefused(await complete(api, client, { factor: 'PASSKEY', passkeyAssertion: forged, origin }), 'passkeyAssertion', 'not_requested');
    // The issued challenge, re-labelled as a quote's: a login cannot use it.
    await em().nativeUpdate(ScaChallenge, { customerId: client.customerId, purpose: 'LOGIN', factor: 'PASSKEY' }, { purpose: 'QUOTE' });
    const assertion = client.authenticator.assert(started.passkeyOptions, origin);
    expectProofRefused(await complete(api, client, { factor: 'PASSKEY', passkeyAssertion: assertion, origin }), 'passkeyAssertion', 'not_requested');
    // With the challengeId of its start, the assertion over another challenge fails the signature's challenge check.
    const next = await passkeyStart(api, client);
    const [issued] = await em().find(ScaChallenge, { customerId: client.customerId, purpose: 'LOGIN', factor: 'PASSKEY', consumedAt: null });
    const other = client.authenticator.assert(next.passkeyOptions, origin, { challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expectProofRefused(
      await complete(api, client, { factor: 'PASSKEY', challengeId: issued!.id, passkeyAssertion: other, origin }),
      'passkeyAssertion',
      'invalid',
    );
    expect(await em().count(ScaSession, { customerId: client.customerId, factor: 'PASSKEY' })).toBe(0);
  });

  test('the reference wallet assertion shape is read as the same', async () => {
    const { api, client } = await passkeyCustomer();
    const started = await passkeyStart(api, client);
    const origin = started.allowedOrigins[0];
    const a = client.authenticator.assert(started.passkeyOptions, origin);
    const wallet = {
      credentialId: a.id,
      clientDataJson: a.response.clientDataJSON,
      authenticatorData: a.response.authenticatorData,
      signature: a.response.signature,
    };
    expect((await complete(api, client, { factor: 'PASSKEY', challengeId: started.challengeId, passkeyAssertion: wallet, origin })).status).toBe(200);
  });

  test('a counter that does not rise (a cloned authenticator) is refused', async () => {
    const { api, client } = await passkeyCustomer();
    let started = await passkeyStart(api, client);
    const origin = started.allowedOrigins[0];
    expect(
      (
        await complete(api, client, {
          factor: 'PASSKEY',
          challengeId: started.challengeId,
          passkeyAssertion: client.authenticator.assert(started.passkeyOptions, origin),
          origin,
        })
      ).status,
    ).toBe(200);
    started = await passkeyStart(api, client);
    const replayed = client.authenticator.assert(started.passkeyOptions, origin, { counter: 1 });
    const res = await complete(api, client, { factor: 'PASSKEY', challengeId: started.challengeId, passkeyAssertion: replayed, origin });
    expectProofRefused(res, 'passkeyAssertion', 'invalid');
    expect(res.body.details.errors[0].message).toContain('counter');
    expect((await em().findOneOrFail(ScaFactor, { customerId: client.customerId, type: 'PASSKEY' })).passkeyCounter).toBe(1n);
  });

  test.each([
    ['made on another origin', { origin: 'https://evil.example' }, 'origin'],
    ['for another relying party', { rpId: 'evil.example' }, 'passkeyAssertion'],
    ['without user verification', { withoutUserVerification: true }, 'passkeyAssertion'],
  ])('an assertion %s is refused', async (_what, knobs, field) => {
    const { api, client } = await passkeyCustomer();
    const started = await passkeyStart(api, client);
    const origin = started.allowedOrigins[0];
    const assertion = client.authenticator.assert(started.passkeyOptions, origin, knobs);
    expectProofRefused(
      await complete(api, client, { factor: 'PASSKEY', challengeId: started.challengeId, passkeyAssertion: assertion, origin }),
      field,
      'invalid',
    );
  });

  test.each([
    ['user presence', { withoutUserPresence: true }],
    ['user verification', { withoutUserVerification: true }],
  ])('a refused assertion names the check that failed: %s', async (check, knobs) => {
    const { api, client } = await passkeyCustomer();
    const started = await passkeyStart(api, client);
    const origin = started.allowedOrigins[0];
    const res = await complete(api, client, {
      factor: 'PASSKEY',
      passkeyAssertion: client.authenticator.assert(started.passkeyOptions, origin, knobs),
      origin,
    });
    expectProofRefused(res, 'passkeyAssertion', 'invalid');
    expect(res.body.details.errors[0].message).toContain(`did not verify (${check})`);
  });

  test('naming an origin the relying party does not allow is refused on origin', async () => {
    const { api, client } = await passkeyCustomer();
    const started = await passkeyStart(api, client);
    const assertion = client.authenticator.assert(started.passkeyOptions, 'https://evil.example');
    expectProofRefused(
      await complete(api, client, { factor: 'PASSKEY', challengeId: started.challengeId, passkeyAssertion: assertion, origin: 'https://evil.example' }),
      'origin',
      'invalid',
    );
  });

  test('another key signing for the enrolled credential id is refused', async () => {
    const { api, client } = await passkeyCustomer();
    const started = await passkeyStart(api, client);
    const origin = started.allowedOrigins[0];
    const impostor = new ScaClient(api, client.customerId).authenticator;
    Object.assign(impostor, { credentialId: client.authenticator.credentialId });
    impostor.counter = 5;
    expectProofRefused(
      await complete(api, client, {
        factor: 'PASSKEY',
        challengeId: started.challengeId,
        passkeyAssertion: impostor.assert(started.passkeyOptions, origin),
        origin,
      }),
      'passkeyAssertion',
      'invalid',
    );
  });
});

describe('lockout', () => {
  test('five wrong proofs lock the customer out for 15 minutes: the next attempt is 423 ACCOUNT_LOCKED, even with the right code', async () => {
    const { api, client } = await scaCustomer(h);
    const { challengeId } = await smsStart(api, client);
    for (let i = 1; i <= 5; i++) expectProofRefused(await complete(api, client, { factor: 'SMS_OTP', challengeId, code: '000000' }), 'code', 'invalid');
    const second = await smsStart(api, client);
    const locked = await complete(api, client, { factor: 'SMS_OTP', challengeId: second.challengeId, code: SANDBOX_CODE });
    expect(locked.status).toBe(423);
    expect(locked.body).toMatchObject({ code: 'ACCOUNT_LOCKED', details: { suspended: false, failedAttempts: 5, lockedUntil: expect.any(String) } });
    expect(Math.abs(Date.parse(locked.body.details.lockedUntil) - Date.now() - 15 * 60_000)).toBeLessThan(60_000);
    expect(await em().count(ScaSession, { customerId: client.customerId })).toBe(0);
    // The burned challenge stays burned.
    expect((await em().findOneOrFail(ScaChallenge, { id: challengeId })).attempts).toBe(5);
  });

  test('record-event: FAILED_LOGIN_ATTEMPT climbs the ladder; while locked it is 423 and not counted; RESET_PASSWORD_COMPLETED clears it', async () => {
    const { api, client } = await scaCustomer(h);
    const record = (eventType: string) => api.post(client.path('/sca/record-event'), { eventType });
    for (let i = 1; i <= 4; i++) {
      const res = await record('FAILED_LOGIN_ATTEMPT');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ eventType: 'FAILED_LOGIN_ATTEMPT', suspended: false, lockedUntil: null, failedAttempts: i });
    }
    const fifth = await record('FAILED_LOGIN_ATTEMPT');
    expect(fifth.body).toMatchObject({ failedAttempts: 5, suspended: false, lockedUntil: expect.any(String) });
    const whileLocked = await record('FAILED_LOGIN_ATTEMPT');
    expect(whileLocked.status).toBe(423);
    expect(whileLocked.body).toMatchObject({ code: 'ACCOUNT_LOCKED', details: { failedAttempts: 5 } });
    // The lock elapses: the next failure is the sixth (30 minutes), and so on to suspension.
    const ladder: [number, number | null][] = [
      [6, 30],
      [7, 60],
      [8, 24 * 60],
      [9, null],
    ];
    for (const [count, minutes] of ladder) {
      await em().nativeUpdate(ScaSecurityState, { customerId: client.customerId }, { lockedUntil: new Date(Date.now() - 1000) });
      const res = await record('FAILED_LOGIN_ATTEMPT');
      expect(res.body.failedAttempts).toBe(count);
      if (minutes === null) expect(res.body).toMatchObject({ suspended: true, lockedUntil: null });
      else expect(Math.abs(Date.parse(res.body.lockedUntil) - Date.now() - minutes * 60_000)).toBeLessThan(60_000);
    }
    expect((await record('FAILED_LOGIN_ATTEMPT')).status).toBe(423);
    const started = await smsStart(api, client);
    expect((await complete(api, client, { factor: 'SMS_OTP', challengeId: started.challengeId, code: SANDBOX_CODE })).body.details).toMatchObject({
      suspended: true,
    });

    const reset = await record('RESET_PASSWORD_COMPLETED');
    expect(reset.body).toEqual({ eventType: 'RESET_PASSWORD_COMPLETED', suspended: false, lockedUntil: null, failedAttempts: 0 });
    expect((await complete(api, client, { factor: 'SMS_OTP', challengeId: started.challengeId, code: SANDBOX_CODE })).status).toBe(200);
  });

  test('RESET_PASSWORD_COMPLETED revokes every SCA session: what needs one is 409 SCA_SESSION_REQUIRED after', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    await client.loginWithSms();
    expect((await api.post(client.path('/sca/factors'), { type: 'TOTP' })).status).toBe(200);
    expect((await api.post(client.path('/sca/record-event'), { eventType: 'RESET_PASSWORD_COMPLETED' })).status).toBe(200);
    expect(await em().count(ScaSession, { customerId: client.customerId, revokedAt: null })).toBe(0);
    const res = await api.post(client.path('/sca/factors'), { type: 'TOTP' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('SCA_SESSION_REQUIRED');
  });

  test('an unknown event type is 400', async () => {
    const { api, client } = await scaCustomer(h);
    const res = await api.post(client.path('/sca/record-event'), { eventType: 'SIGNED_IN' });
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0].field).toBe('eventType');
  });
});

describe('session expiry', () => {
  test('an expired session is no session: 409 SCA_SESSION_REQUIRED until the customer logs in again', async () => {
    const { api, client } = await scaCustomer(h, { loggedIn: true });
    await em().nativeUpdate(ScaSession, { customerId: client.customerId }, { expiresAt: new Date(Date.now() - 1) });
    const res = await api.post(client.path('/sca/factors'), { type: 'PASSKEY' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'SCA_SESSION_REQUIRED', reason: expect.stringContaining('/sca/login/start') });
    await client.loginWithSms();
    expect((await api.post(client.path('/sca/factors'), { type: 'PASSKEY' })).status).toBe(200);
  });
});

describe('tenant isolation', () => {
  test("another platform can neither log a customer in nor lock it out: 404, and the customer's state is untouched", async () => {
    const a = await scaCustomer(h);
    const { challengeId } = await smsStart(a.api, a.client);
    const b = await h.platform({ region: 'EU' });
    const intruder = new ScaClient(b.api, a.customerId);
    const calls = [
      b.api.post(intruder.path('/sca/login/start'), { factor: 'SMS_OTP' }),
      b.api.post(intruder.path('/sca/login/complete'), { factor: 'SMS_OTP', challengeId, code: SANDBOX_CODE, endUserIpAddress: IP }),
      b.api.post(intruder.path('/sca/login/complete'), { factor: 'SMS_OTP', challengeId, code: '000000', endUserIpAddress: IP }),
      ...Array.from({ length: 6 }, () => b.api.post(intruder.path('/sca/record-event'), { eventType: 'FAILED_LOGIN_ATTEMPT' })),
      b.api.post(intruder.path('/sca/record-event'), { eventType: 'RESET_PASSWORD_COMPLETED' }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('USER_NOT_FOUND');
    }
    expect(await em().count(ScaSecurityState, { customerId: a.customerId })).toBe(0);
    expect((await em().findOneOrFail(ScaChallenge, { id: challengeId })).attempts).toBe(0);
    expect(await em().count(ScaChallenge, { customerId: a.customerId })).toBe(1);
    expect((await complete(a.api, a.client, { factor: 'SMS_OTP', challengeId, code: SANDBOX_CODE })).status).toBe(200);
  });

  test("a challenge of another platform's customer is not found for this platform's customer", async () => {
    const a = await scaCustomer(h);
    const { challengeId } = await smsStart(a.api, a.client);
    const b = await scaCustomer(h);
    expectProofRefused(await complete(b.api, b.client, { factor: 'SMS_OTP', challengeId, code: SANDBOX_CODE }), 'challengeId', 'not_requested');
    expect(await em().count(ScaSession, { customerId: b.customerId })).toBe(0);
  });
});

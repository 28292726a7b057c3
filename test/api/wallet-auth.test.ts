import { AuthCredential, AuthSession } from '../../src/contexts/wallet-auth/entities';
import { InternalAccount } from '../../src/contexts/ledger/entities';
import { Harness } from '../support/harness';
import type { AddressInfo } from 'node:net';
import { BASE } from '../support/harness';
import { customerWithWallet, encryptOtp, newDeviceKey, otpLogin, otpLoginOverHttp, signedHeaders, type WalletSession } from '../support/wallet-client';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

async function walletPlatform() {
  const p = await h.platform({ embeddedWalletsSupported: true });
  const { customer, walletId } = await customerWithWallet(h, p.platform.id);
  const [email] = (await p.api.get(`/auth/credentials?accountId=${walletId}`).expect(200)).body.data;
  return { ...p, customer, walletId, email };
}

/** Adds the wallet's SMS_OTP credential, signed by an existing session. */
async function addSms(api: Api, walletId: string, signer: WalletSession) {
  const body = { type: 'SMS_OTP', accountId: walletId };
  const pending = await api.post('/auth/credentials', body).expect(202);
  return (await api.post('/auth/credentials', body, signedHeaders(signer.key, pending.body)).expect(201)).body;
}

describe('credentials', () => {
  test("a wallet starts with an EMAIL_OTP credential to its owner's email; the list is data only", async () => {
    const { api, customer, walletId, email } = await walletPlatform();
    expect(email).toEqual({
      id: expect.stringMatching(/^AuthMethod:/),
      accountId: walletId,
      type: 'EMAIL_OTP',
      nickname: customer.email,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const listed = await api.get(`/auth/credentials?accountId=${walletId}`).expect(200);
    expect(Object.keys(listed.body)).toEqual(['data']);
    // An unknown account has none; a malformed id is 400.
    expect((await api.get('/auth/credentials?accountId=InternalAccount:019542f5-b3e7-1d02-0000-000000000002').expect(200)).body).toEqual({ data: [] });
    const bad = await api.get('/auth/credentials?accountId=Customer:1').expect(400);
    expect(bad.body.details.errors).toEqual([expect.objectContaining({ field: 'accountId' })]);
    await api.get('/auth/credentials').expect(400);
  });

  test("a wallet without credentials registers its first at once (201 with a target bundle); the owner's missing email is 400", async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const { walletId } = await customerWithWallet(h, platform.id, { email: null });
    expect((await api.get(`/auth/credentials?accountId=${walletId}`).expect(200)).body.data).toEqual([]);
    const noEmail = await api.post('/auth/credentials', { type: 'EMAIL_OTP', accountId: walletId }).expect(400);
    expect(noEmail.body).toMatchObject({ code: 'MISSING_MANDATORY_USER_INFO', details: { errors: [{ field: 'customer.email' }] } });
    const sms = await api.post('/auth/credentials', { type: 'SMS_OTP', accountId: walletId }).expect(201);
    expect(sms.body).toMatchObject({ type: 'SMS_OTP', nickname: '+4915112345678', otpEncryptionTargetBundle: expect.any(String) });
    // The bundle is live: the first login works with it.
    const key = newDeviceKey();
    const body = { type: 'SMS_OTP', encryptedOtpBundle: await encryptOtp(sms.body.otpEncryptionTargetBundle, '000000', key.publicKey) };
    const pending = await api.post(`/auth/credentials/${sms.body.id}/verify`, body).expect(202);
    await api.post(`/auth/credentials/${sms.body.id}/verify`, body, signedHeaders(key, pending.body)).expect(200);
  });

  test('an additional credential is signed by a session of the wallet; one EMAIL_OTP and one SMS_OTP per wallet', async () => {
    const { api, walletId, email } = await walletPlatform();
    const body = { type: 'SMS_OTP', accountId: walletId };
    const pending = await api.post('/auth/credentials', body).expect(202);
    expect(pending.body).toEqual({
      type: 'SMS_OTP',
      payloadToSign: expect.any(String),
      requestId: expect.stringMatching(/^Request:/),
      expiresAt: expect.any(String),
    });
    expect(JSON.parse(pending.body.payloadToSign)).toMatchObject({ organizationId: walletId, type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER' });
    expect(Date.parse(pending.body.expiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);
    // Nothing is created before the signed retry.
    expect((await api.get(`/auth/credentials?accountId=${walletId}`).expect(200)).body.data).toHaveLength(1);
    const signer = await otpLogin(api, email.id);
    const created = await api.post('/auth/credentials', body, signedHeaders(signer.key, pending.body)).expect(201);
    expect(created.body).toMatchObject({ accountId: walletId, type: 'SMS_OTP', nickname: '+4915112345678', otpEncryptionTargetBundle: expect.any(String) });
    // The 201's bundle is the new credential's live challenge: the code sealed to it logs in, no /challenge call first.
    const key = newDeviceKey();
    const attempt = { type: 'SMS_OTP', encryptedOtpBundle: await encryptOtp(created.body.otpEncryptionTargetBundle, '000000', key.publicKey) };
    const login = await api.post(`/auth/credentials/${created.body.id}/verify`, attempt).expect(202);
    await api.post(`/auth/credentials/${created.body.id}/verify`, attempt, signedHeaders(key, login.body)).expect(200);
    expect((await api.get(`/auth/credentials?accountId=${walletId}`).expect(200)).body.data.map((c: { type: string }) => c.type)).toEqual([
      'EMAIL_OTP',
      'SMS_OTP',
    ]);
    expect((await api.post('/auth/credentials', body).expect(400)).body.code).toBe('SMS_OTP_CREDENTIAL_ALREADY_EXISTS');
    expect((await api.post('/auth/credentials', { type: 'EMAIL_OTP', accountId: walletId }).expect(400)).body.code).toBe('EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');
  });

  test('an account that is no embedded wallet is 409 WALLET_NOT_PROVISIONED', async () => {
    const { api, customer } = await walletPlatform();
    const fiat = await h.orm.em.fork().findOneOrFail(InternalAccount, { customerId: customer.id, type: 'INTERNAL_FIAT' }, { orderBy: { currency: 'asc' } });
    expect((await api.post('/auth/credentials', { type: 'SMS_OTP', accountId: fiat.id }).expect(409)).body.code).toBe('WALLET_NOT_PROVISIONED');
  });

  test('a second credential change while one waits for its signature is 409 OPERATION_IN_PROGRESS; the same request gets the same challenge', async () => {
    const { api, walletId, email } = await walletPlatform();
    const body = { type: 'SMS_OTP', accountId: walletId };
    const first = await api.post('/auth/credentials', body).expect(202);
    const again = await api.post('/auth/credentials', body).expect(202);
    expect(again.body.requestId).toBe(first.body.requestId);
    const signer = await otpLogin(api, email.id);
    const sms = await api.post('/auth/credentials', body, signedHeaders(signer.key, first.body)).expect(201);
    // Now a revocation waits; another change must wait for it.
    const revoke = await api.delete(`/auth/credentials/${sms.body.id}`).expect(202);
    const busy = await api.delete(`/auth/credentials/${email.id}`).expect(409);
    expect(busy.body).toMatchObject({ code: 'OPERATION_IN_PROGRESS', details: { requestId: revoke.body.requestId } });
  });

  test('revoking: signed by a session of another credential (not its own), its sessions end with it; the last credential stays', async () => {
    const { api, walletId, email } = await walletPlatform();
    const emailSession = await otpLogin(api, email.id);
    const sms = await addSms(api, walletId, emailSession);
    const smsSession = await otpLogin(api, sms.id, 'SMS_OTP');

    const pending = await api.delete(`/auth/credentials/${email.id}`).expect(202);
    expect(pending.body.type).toBe('EMAIL_OTP');
    const own = await api.delete(`/auth/credentials/${email.id}`, signedHeaders(emailSession.key, pending.body)).expect(401);
    expect(own.body.code).toBe('WALLET_SIGNATURE_INVALID');
    // The refused retry did not use the request up.
    await api.delete(`/auth/credentials/${email.id}`, signedHeaders(smsSession.key, pending.body)).expect(204);
    expect((await api.get(`/auth/credentials?accountId=${walletId}`).expect(200)).body.data.map((c: { id: string }) => c.id)).toEqual([sms.id]);
    expect((await api.get(`/auth/sessions?accountId=${walletId}`).expect(200)).body.data.map((s: { id: string }) => s.id)).toEqual([smsSession.session.id]);
    await api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(404);

    const last = await api.delete(`/auth/credentials/${sms.id}`).expect(400);
    expect(last.body).toMatchObject({ code: 'INVALID_INPUT', reason: "The wallet's last credential cannot be revoked" });
  });

  test('EMAIL_OTP_CREDENTIAL_SET_CHANGED: a code issued before the credentials changed no longer logs in', async () => {
    const { api, walletId, email } = await walletPlatform();
    const signer = await otpLogin(api, email.id);
    const key = newDeviceKey();
    const challenge = await api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(200);
    await addSms(api, walletId, signer);
    const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(challenge.body.otpEncryptionTargetBundle, '000000', key.publicKey) };
    expect((await api.post(`/auth/credentials/${email.id}/verify`, body).expect(409)).body.code).toBe('EMAIL_OTP_CREDENTIAL_SET_CHANGED');
    // A new challenge works.
    await otpLogin(api, email.id);
  });
});

describe('OTP login', () => {
  test('challenge → sealed code → 202 bound to the client key → retry stamped with it → the session', async () => {
    const { api, walletId, email } = await walletPlatform();
    const challenge = await api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(200);
    expect(challenge.body).toMatchObject({ id: email.id, type: 'EMAIL_OTP', otpEncryptionTargetBundle: expect.any(String) });
    expect(JSON.parse(challenge.body.otpEncryptionTargetBundle)).toEqual({
      version: 'v1.0.0',
      data: expect.stringMatching(/^[0-9a-f]+$/),
      dataSignature: expect.stringMatching(/^30[0-9a-f]+$/),
      enclaveQuorumPublic: expect.stringMatching(/^04[0-9a-f]{128}$/),
    });
    const key = newDeviceKey();
    const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(challenge.body.otpEncryptionTargetBundle, '000000', key.publicKey) };
    const pending = await api.post(`/auth/credentials/${email.id}/verify`, body).expect(202);
    expect(pending.body.type).toBe('EMAIL_OTP');
    expect(JSON.parse(pending.body.payloadToSign).parameters).toMatchObject({ authenticatorId: email.id, publicKey: key.publicKey });
    const session = await api.post(`/auth/credentials/${email.id}/verify`, body, signedHeaders(key, pending.body)).expect(200);
    expect(session.body).toEqual({
      id: expect.stringMatching(/^Session:/),
      accountId: walletId,
      type: 'EMAIL_OTP',
      nickname: email.nickname,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    const ttl = Date.parse(session.body.expiresAt) - Date.parse(session.body.createdAt);
    expect(ttl).toBe(15 * 60_000);
    const listed = await api.get(`/auth/sessions?accountId=${walletId}`).expect(200);
    expect(listed.body).toEqual({ data: [session.body] });
    // The code was used up by the first call: the same bundle does not log in again.
    expect((await api.post(`/auth/credentials/${email.id}/verify`, body).expect(401)).body.code).toBe('UNAUTHORIZED');
  });

  test("the wallet docs' client script (docs/wallets-and-sca.md) logs in over HTTP", async () => {
    const { api, walletId, email, token } = await walletPlatform();
    const server = h.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE}`;
      const { session, privateKey } = await otpLoginOverHttp(base, `${token.tokenId}:${token.clientSecret}`, email.id);
      expect(session).toMatchObject({ accountId: walletId, type: 'EMAIL_OTP' });
      expect(privateKey).toMatch(/^[0-9a-f]{64}$/);
      expect((await api.get(`/auth/sessions?accountId=${walletId}`).expect(200)).body.data.map((s: { id: string }) => s.id)).toEqual([session.id]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a wrong code is 401 "Invalid OTP code"; the fifth burns the challenge', async () => {
    const { api, email } = await walletPlatform();
    const challenge = await api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(200);
    const key = newDeviceKey();
    const attempt = async (code: string) => ({
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await encryptOtp(challenge.body.otpEncryptionTargetBundle, code, key.publicKey),
    });
    const wrong = await api.post(`/auth/credentials/${email.id}/verify`, await attempt('123456')).expect(401);
    expect(wrong.body).toMatchObject({ code: 'UNAUTHORIZED', reason: 'Invalid OTP code' });
    for (let i = 0; i < 4; i++) await api.post(`/auth/credentials/${email.id}/verify`, await attempt('111111')).expect(401);
    const burnt = await api.post(`/auth/credentials/${email.id}/verify`, await attempt('000000')).expect(401);
    expect(burnt.body.reason).toMatch(/No one-time code is outstanding/);
  });

  test('an encryptedOtpBundle that is no sealed bundle is 400 INVALID_INPUT on it, counted as no attempt; the right code still logs in', async () => {
    const { api, email } = await walletPlatform();
    const challenge = await api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(200);
    const key = newDeviceKey();
    const sealed = JSON.parse(await encryptOtp(challenge.body.otpEncryptionTargetBundle, '000000', key.publicKey)) as Record<string, string>;
    const malformed = [
      'not json at all',
      '"a JSON string"',
      '[1, 2]',
      JSON.stringify({ ciphertext: sealed.ciphertext }),
      JSON.stringify({ ...sealed, encappedPublic: 'zz' }),
      JSON.stringify({ ...sealed, encappedPublic: sealed.encappedPublic!.slice(0, 66) }),
      JSON.stringify({ ...sealed, ciphertext: 42 }),
    ];
    for (const encryptedOtpBundle of malformed) {
      const res = await api.post(`/auth/credentials/${email.id}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle });
      expect({ encryptedOtpBundle, status: res.status, code: res.body.code, field: res.body.details?.errors?.[0]?.field }).toEqual({
        encryptedOtpBundle,
        status: 400,
        code: 'INVALID_INPUT',
        field: 'encryptedOtpBundle',
      });
    }
    expect((await h.orm.em.fork().findOneOrFail(AuthCredential, { id: email.id })).challengeAttempts).toBe(0);
    const body = { type: 'EMAIL_OTP', encryptedOtpBundle: JSON.stringify(sealed) };
    const pending = await api.post(`/auth/credentials/${email.id}/verify`, body).expect(202);
    await api.post(`/auth/credentials/${email.id}/verify`, body, signedHeaders(key, pending.body)).expect(200);
  });

  test('without a challenge, with a bundle sealed to another target, or with the wrong type, nothing logs in', async () => {
    const { api, walletId, email } = await walletPlatform();
    const key = newDeviceKey();
    const other = await h.platform({ embeddedWalletsSupported: true });
    const { walletId: otherWallet } = await customerWithWallet(h, other.platform.id);
    const [otherEmail] = (await other.api.get(`/auth/credentials?accountId=${otherWallet}`).expect(200)).body.data;
    const foreign = await other.api.post(`/auth/credentials/${otherEmail.id}/challenge`, {}).expect(200);
    const sealedElsewhere = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(foreign.body.otpEncryptionTargetBundle, '000000', key.publicKey) };
    expect((await api.post(`/auth/credentials/${email.id}/verify`, sealedElsewhere).expect(401)).body.reason).toMatch(/No one-time code/);
    await api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(200);
    expect((await api.post(`/auth/credentials/${email.id}/verify`, sealedElsewhere).expect(401)).body.reason).toMatch(/could not be opened/);
    const wrongType = await api.post(`/auth/credentials/${email.id}/verify`, { ...sealedElsewhere, type: 'SMS_OTP' }).expect(400);
    expect(wrongType.body.details.errors).toEqual([expect.objectContaining({ field: 'type' })]);
    expect((await api.get(`/auth/sessions?accountId=${walletId}`).expect(200)).body.data).toEqual([]);
  });

  test('the retry must be stamped with the key sealed with the code, not another', async () => {
    const { api, email } = await walletPlatform();
    const challenge = await api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(200);
    const key = newDeviceKey();
    const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(challenge.body.otpEncryptionTargetBundle, '000000', key.publicKey) };
    const pending = await api.post(`/auth/credentials/${email.id}/verify`, body).expect(202);
    const thief = await api.post(`/auth/credentials/${email.id}/verify`, body, signedHeaders(newDeviceKey(), pending.body)).expect(401);
    expect(thief.body.code).toBe('WALLET_SIGNATURE_INVALID');
    await api.post(`/auth/credentials/${email.id}/verify`, body, signedHeaders(key, pending.body)).expect(200);
  });
});

describe('how often codes are sent', () => {
  test('five codes per credential in 15 minutes: the sixth is 429 with Retry-After and sends nothing; another credential is not held back', async () => {
    const { api, email } = await walletPlatform();
    for (let i = 0; i < 5; i++) await api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(200);
    const before = await h.orm.em.fork().findOneOrFail(AuthCredential, { id: email.id });
    const refused = await api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } });
    expect(Number(refused.headers['retry-after'])).toBe(refused.body.details.retryAfterSeconds);
    expect(refused.body.details.retryAfterSeconds).toBeGreaterThan(14 * 60);
    // The outstanding code is the fifth's, untouched by the refusal.
    const after = await h.orm.em.fork().findOneOrFail(AuthCredential, { id: email.id });
    expect(after.challengeSealed).toBe(before.challengeSealed);
    expect(after.challengeSends).toHaveLength(5);
    const other = await walletPlatform();
    await other.api.post(`/auth/credentials/${other.email.id}/challenge`, {}).expect(200);
  });

  test('sends older than the window no longer count', async () => {
    const { api, email } = await walletPlatform();
    const old = new Date(Date.now() - 16 * 60 * 1000).toISOString();
    await h.orm.em.fork().nativeUpdate(AuthCredential, { id: email.id }, { challengeSends: [old, old, old, old, old] });
    await api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(200);
    expect((await h.orm.em.fork().findOneOrFail(AuthCredential, { id: email.id })).challengeSends).toHaveLength(1);
  });
});

describe('production codes', () => {
  test('a random code goes to the email through the sender, only a keyed hash of it is stored; 000000 is no code there', async () => {
    const prod = await h.platform({ embeddedWalletsSupported: true, environment: 'PRODUCTION' });
    const { customer, walletId } = await customerWithWallet(h, prod.platform.id);
    const [email] = (await prod.api.get(`/auth/credentials?accountId=${walletId}`).expect(200)).body.data;
    // No provider configured: 501, and no challenge stored.
    expect((await prod.api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(501)).body.details).toEqual({ delivery: 'NOT_CONFIGURED' });
    expect((await h.orm.em.fork().findOneOrFail(AuthCredential, { id: email.id })).challengeSealed).toBeNull();

    const sent: { channel: string; to: string; code: string; customerId: string }[] = [];
    h.deps.contactCodeSender = async (m) => {
      sent.push(m);
    };
    try {
      const challenge = await prod.api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(200);
      expect(sent).toEqual([
        expect.objectContaining({ channel: 'email', to: customer.email, customerId: customer.id, code: expect.stringMatching(/^\d{6}$/) }),
      ]);
      const stored = await h.orm.em.fork().findOneOrFail(AuthCredential, { id: email.id });
      expect(stored.challengeSealed).not.toContain(sent[0]!.code);
      const key = newDeviceKey();
      const attempt = async (code: string) => ({
        type: 'EMAIL_OTP',
        encryptedOtpBundle: await encryptOtp(challenge.body.otpEncryptionTargetBundle, code, key.publicKey),
      });
      if (sent[0]!.code !== '000000') {
        expect((await prod.api.post(`/auth/credentials/${email.id}/verify`, await attempt('000000')).expect(401)).body.reason).toBe('Invalid OTP code');
      }
      const body = await attempt(sent[0]!.code);
      const pending = await prod.api.post(`/auth/credentials/${email.id}/verify`, body).expect(202);
      await prod.api.post(`/auth/credentials/${email.id}/verify`, body, signedHeaders(key, pending.body)).expect(200);
      // The sandbox's legacy literal is no stamp in production.
      const next = await prod.api.post('/auth/credentials', { type: 'SMS_OTP', accountId: walletId }).expect(202);
      const legacy = await prod.api.post(
        '/auth/credentials',
        { type: 'SMS_OTP', accountId: walletId },
        { 'Svc-Wallet-Signature': 'sandbox-valid-signature', 'Request-Id': next.body.requestId },
      );
      expect(legacy.body.code).toBe('WALLET_SIGNATURE_MALFORMED');
    } finally {
      delete h.deps.contactCodeSender;
    }
  });
});

describe('sessions', () => {
  test('log-out: a session revokes itself; its key signs nothing after', async () => {
    const { api, walletId, email } = await walletPlatform();
    const me = await otpLogin(api, email.id);
    const pending = await api.delete(`/auth/sessions/${me.session.id}`).expect(202);
    expect(pending.body.type).toBe('EMAIL_OTP');
    await api.delete(`/auth/sessions/${me.session.id}`, signedHeaders(me.key, pending.body)).expect(204);
    expect((await api.get(`/auth/sessions?accountId=${walletId}`).expect(200)).body.data).toEqual([]);
    await api.delete(`/auth/sessions/${me.session.id}`).expect(404);
    // Its key is refused for any other operation.
    const other = await otpLogin(api, email.id);
    const next = await api.delete(`/auth/sessions/${other.session.id}`).expect(202);
    expect((await api.delete(`/auth/sessions/${other.session.id}`, signedHeaders(me.key, next.body)).expect(401)).body.code).toBe('WALLET_SIGNATURE_INVALID');
  });

  test('one session revokes another; the credential stays usable', async () => {
    const { api, walletId, email } = await walletPlatform();
    const [a, b] = [await otpLogin(api, email.id), await otpLogin(api, email.id)];
    expect((await api.get(`/auth/sessions?accountId=${walletId}`).expect(200)).body.data).toHaveLength(2);
    const pending = await api.delete(`/auth/sessions/${b.session.id}`).expect(202);
    await api.delete(`/auth/sessions/${b.session.id}`, signedHeaders(a.key, pending.body)).expect(204);
    expect((await api.get(`/auth/sessions?accountId=${walletId}`).expect(200)).body.data.map((s: { id: string }) => s.id)).toEqual([a.session.id]);
    await otpLogin(api, email.id);
  });

  test('refresh: stamped by the session itself, it closes and a session with the new key opens (201)', async () => {
    const { api, walletId, email } = await walletPlatform();
    const [me, other] = [await otpLogin(api, email.id), await otpLogin(api, email.id)];
    const next = newDeviceKey();
    const body = { clientPublicKey: next.publicKey };
    const pending = await api.post(`/auth/sessions/${me.session.id}/refresh`, body).expect(202);
    expect(Object.keys(pending.body).sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId']);
    expect(JSON.parse(pending.body.payloadToSign).parameters).toMatchObject({ sessionId: me.session.id, targetPublicKey: next.publicKey });
    const byOther = await api.post(`/auth/sessions/${me.session.id}/refresh`, body, signedHeaders(other.key, pending.body)).expect(401);
    expect(byOther.body.code).toBe('WALLET_SIGNATURE_INVALID');
    const fresh = await api.post(`/auth/sessions/${me.session.id}/refresh`, body, signedHeaders(me.key, pending.body)).expect(201);
    expect(fresh.body).toMatchObject({ id: expect.stringMatching(/^Session:/), accountId: walletId, type: 'EMAIL_OTP' });
    expect(fresh.body.id).not.toBe(me.session.id);
    const ids = (await api.get(`/auth/sessions?accountId=${walletId}`).expect(200)).body.data.map((s: { id: string }) => s.id);
    expect(ids.sort()).toEqual([other.session.id, fresh.body.id].sort());
    // The new key signs; the old one no longer does.
    const logout = await api.delete(`/auth/sessions/${fresh.body.id}`).expect(202);
    expect((await api.delete(`/auth/sessions/${fresh.body.id}`, signedHeaders(me.key, logout.body)).expect(401)).body.code).toBe('WALLET_SIGNATURE_INVALID');
    await api.delete(`/auth/sessions/${fresh.body.id}`, signedHeaders(next, logout.body)).expect(204);
    // A closed session cannot be refreshed: 401.
    expect((await api.post(`/auth/sessions/${me.session.id}/refresh`, body).expect(401)).body.code).toBe('UNAUTHORIZED');
  });

  test('refresh takes compressed keys only', async () => {
    const { api, email } = await walletPlatform();
    const me = await otpLogin(api, email.id);
    const bad = await api.post(`/auth/sessions/${me.session.id}/refresh`, { clientPublicKey: newDeviceKey().uncompressedPublicKey }).expect(400);
    expect(bad.body.details.errors).toEqual([expect.objectContaining({ field: 'clientPublicKey' })]);
  });

  test("an expired session's key signs nothing, and it is not listed", async () => {
    const { api, walletId, email } = await walletPlatform();
    const [me, other] = [await otpLogin(api, email.id), await otpLogin(api, email.id)];
    await h.orm.em.fork().nativeUpdate(AuthSession, { id: me.session.id }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await api.get(`/auth/sessions?accountId=${walletId}`).expect(200)).body.data.map((s: { id: string }) => s.id)).toEqual([other.session.id]);
    const pending = await api.delete(`/auth/sessions/${other.session.id}`).expect(202);
    expect((await api.delete(`/auth/sessions/${other.session.id}`, signedHeaders(me.key, pending.body)).expect(401)).body.code).toBe(
      'WALLET_SIGNATURE_INVALID',
    );
    await api.post(`/auth/sessions/${me.session.id}/refresh`, { clientPublicKey: newDeviceKey().publicKey }).expect(401);
  });
});

describe('tenant isolation', () => {
  test("another platform neither sees nor acts on a wallet's credentials, sessions or requests", async () => {
    const { api, walletId, email } = await walletPlatform();
    const me = await otpLogin(api, email.id);
    const intruder = (await h.platform({ embeddedWalletsSupported: true })).api;
    expect((await intruder.get(`/auth/credentials?accountId=${walletId}`).expect(200)).body).toEqual({ data: [] });
    expect((await intruder.get(`/auth/sessions?accountId=${walletId}`).expect(200)).body).toEqual({ data: [] });
    await intruder.post('/auth/credentials', { type: 'SMS_OTP', accountId: walletId }).expect(404);
    await intruder.post(`/auth/credentials/${email.id}/challenge`, {}).expect(404);
    await intruder.post(`/auth/credentials/${email.id}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle: '{}' }).expect(404);
    await intruder.delete(`/auth/credentials/${email.id}`).expect(404);
    await intruder.delete(`/auth/sessions/${me.session.id}`).expect(404);
    await intruder.post(`/auth/sessions/${me.session.id}/refresh`, { clientPublicKey: newDeviceKey().publicKey }).expect(404);
    // The owner's pending request and stamp are worth nothing on another platform's own wallet.
    const pending = await api.delete(`/auth/sessions/${me.session.id}`).expect(202);
    const p2 = await h.platform({ embeddedWalletsSupported: true });
    const { walletId: theirWallet } = await customerWithWallet(h, p2.platform.id);
    const [theirEmail] = (await p2.api.get(`/auth/credentials?accountId=${theirWallet}`).expect(200)).body.data;
    const theirs = await otpLogin(p2.api, theirEmail.id);
    const replayed = await p2.api.delete(`/auth/sessions/${theirs.session.id}`, signedHeaders(me.key, pending.body)).expect(401);
    expect(replayed.body.code).toBe('UNAUTHORIZED');
    expect((await api.get(`/auth/sessions?accountId=${walletId}`).expect(200)).body.data).toHaveLength(1);
  });
});

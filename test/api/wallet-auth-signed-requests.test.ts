import { AuthCredential, AuthSession, SignedRequest } from '../../src/contexts/wallet-auth/entities';
import { newId } from '../../src/domain/ids';
import { Harness } from '../support/harness';
import {
  customerWithWallet,
  encryptOtp,
  newDeviceKey,
  otpLogin,
  SANDBOX_OTP,
  signedHeaders,
  stamp,
  stampOf,
  type WalletSession,
} from '../support/wallet-client';

/**
 * The one signed-request mechanism (spec §5.3), through a signed operation of the wallet-auth
 * context (session refresh and revocation): each rule of the signed retry with its own test.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

async function loggedIn(): Promise<{ api: Api; walletId: string; me: WalletSession }> {
  const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
  const { walletId } = await customerWithWallet(h, platform.id);
  const [email] = (await api.get(`/auth/credentials?accountId=${walletId}`).expect(200)).body.data;
  return { api, walletId, me: await otpLogin(api, email.id) };
}

/** A refresh of the session: its first call and the body its retry must repeat. */
async function pendingRefresh(api: Api, me: WalletSession) {
  const body = { clientPublicKey: newDeviceKey().publicKey };
  const challenge = (await api.post(`/auth/sessions/${me.session.id}/refresh`, body).expect(202)).body as { payloadToSign: string; requestId: string };
  return { body, challenge, path: `/auth/sessions/${me.session.id}/refresh` };
}

const sessionsOf = async (api: Api, walletId: string) => (await api.get(`/auth/sessions?accountId=${walletId}`).expect(200)).body.data as { id: string }[];

describe('the signed retry', () => {
  test('a signature without Request-Id is 401 REQUEST_ID_MISSING', async () => {
    const { api, me } = await loggedIn();
    const { body, challenge, path } = await pendingRefresh(api, me);
    const res = await api.post(path, body, { 'Svc-Wallet-Signature': stamp(me.key, challenge.payloadToSign) }).expect(401);
    expect(res.body.code).toBe('REQUEST_ID_MISSING');
  });

  test('a Request-Id without signature is 401 WALLET_SIGNATURE_MISSING', async () => {
    const { api, me } = await loggedIn();
    const { body, challenge, path } = await pendingRefresh(api, me);
    expect((await api.post(path, body, { 'Request-Id': challenge.requestId }).expect(401)).body.code).toBe('WALLET_SIGNATURE_MISSING');
  });

  test.each([
    ['not base64url JSON', () => 'not a stamp!'],
    ['another scheme', (key: WalletSession['key'], payload: string) => stampOf({ ...decode(stamp(key, payload)), scheme: 'SIGNATURE_SCHEME_OTHER' })],
    [
      'a signature that is not DER hex',
      (key: WalletSession['key']) => stampOf({ publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: 'zz' }),
    ],
  ])('a stamp with %s is 401 WALLET_SIGNATURE_MALFORMED', async (_name, make) => {
    const { api, me } = await loggedIn();
    const { body, challenge, path } = await pendingRefresh(api, me);
    const res = await api.post(path, body, { 'Svc-Wallet-Signature': make(me.key, challenge.payloadToSign), 'Request-Id': challenge.requestId }).expect(401);
    expect(res.body.code).toBe('WALLET_SIGNATURE_MALFORMED');
  });

  test('a retry whose body differs from the first call is 401 WALLET_SIGNATURE_BODY_MISMATCH, and nothing happens', async () => {
    const { api, walletId, me } = await loggedIn();
    const { challenge, path } = await pendingRefresh(api, me);
    const tampered = { clientPublicKey: newDeviceKey().publicKey };
    expect((await api.post(path, tampered, signedHeaders(me.key, challenge)).expect(401)).body.code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    expect((await sessionsOf(api, walletId)).map((s) => s.id)).toEqual([me.session.id]);
  });

  test('an unknown Request-Id, or one of another operation, is 401 UNAUTHORIZED', async () => {
    const { api, me } = await loggedIn();
    const { body, challenge, path } = await pendingRefresh(api, me);
    const unknown = { ...challenge, requestId: newId('Request') };
    expect((await api.post(path, body, signedHeaders(me.key, unknown)).expect(401)).body.code).toBe('UNAUTHORIZED');
    const logout = (await api.delete(`/auth/sessions/${me.session.id}`).expect(202)).body;
    expect((await api.post(path, body, signedHeaders(me.key, logout)).expect(401)).body.code).toBe('UNAUTHORIZED');
  });

  test('an expired request is 401 UNAUTHORIZED', async () => {
    const { api, me } = await loggedIn();
    const { body, challenge, path } = await pendingRefresh(api, me);
    await h.orm.em.fork().nativeUpdate(SignedRequest, { id: challenge.requestId }, { expiresAt: new Date(Date.now() - 1000) });
    const res = await api.post(path, body, signedHeaders(me.key, challenge)).expect(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', reason: expect.stringMatching(/expired/) });
  });

  test('a replayed request id (a second retry after success) is 401 UNAUTHORIZED', async () => {
    const { api, me } = await loggedIn();
    const { body, challenge, path } = await pendingRefresh(api, me);
    await api.post(path, body, signedHeaders(me.key, challenge)).expect(201);
    // (The refreshed session is closed by now, which is also 401; the next test replays on a live target.)
    expect((await api.post(path, body, signedHeaders(me.key, challenge)).expect(401)).body.code).toBe('UNAUTHORIZED');
  });

  test('a used request stays used: the same signed retry twice on a live target is 401 UNAUTHORIZED the second time', async () => {
    const { api, walletId, me } = await loggedIn();
    const [credential] = (await api.get(`/auth/credentials?accountId=${walletId}`).expect(200)).body.data;
    const other = await otpLogin(api, credential.id);
    // Revoke `other` with me's stamp; the retry of the same request, on a live session, must not run twice.
    const logout = (await api.delete(`/auth/sessions/${other.session.id}`).expect(202)).body;
    await api.delete(`/auth/sessions/${other.session.id}`, signedHeaders(me.key, logout)).expect(204);
    await h.orm.em.fork().nativeUpdate(AuthSession, { id: other.session.id }, { revokedAt: null });
    const replay = await api.delete(`/auth/sessions/${other.session.id}`, signedHeaders(me.key, logout)).expect(401);
    expect(replay.body).toMatchObject({ code: 'UNAUTHORIZED', reason: expect.stringMatching(/already used/) });
  });

  test('a stamp by a session of another wallet is 401 WALLET_SIGNATURE_INVALID', async () => {
    const { api, me } = await loggedIn();
    const stranger = await loggedIn();
    const { body, challenge, path } = await pendingRefresh(api, me);
    expect((await api.post(path, body, signedHeaders(stranger.me.key, challenge)).expect(401)).body.code).toBe('WALLET_SIGNATURE_INVALID');
  });

  test('a stamp over another payload, or by a key that is no session, is 401 WALLET_SIGNATURE_INVALID', async () => {
    const { api, me } = await loggedIn();
    const { body, challenge, path } = await pendingRefresh(api, me);
    const otherPayload = { 'Svc-Wallet-Signature': stamp(me.key, `${challenge.payloadToSign} `), 'Request-Id': challenge.requestId };
    expect((await api.post(path, body, otherPayload).expect(401)).body.code).toBe('WALLET_SIGNATURE_INVALID');
    expect((await api.post(path, body, signedHeaders(newDeviceKey(), challenge)).expect(401)).body.code).toBe('WALLET_SIGNATURE_INVALID');
    // None of the refused retries used the request up.
    await api.post(path, body, signedHeaders(me.key, challenge)).expect(201);
  });

  test("a revoked session's stamp is 401 WALLET_SIGNATURE_INVALID", async () => {
    const { api, walletId, me } = await loggedIn();
    const [credential] = (await api.get(`/auth/credentials?accountId=${walletId}`).expect(200)).body.data;
    const other = await otpLogin(api, credential.id);
    const logout = (await api.delete(`/auth/sessions/${other.session.id}`).expect(202)).body;
    await h.orm.em.fork().nativeUpdate(AuthSession, { id: me.session.id }, { revokedAt: new Date() });
    expect((await api.delete(`/auth/sessions/${other.session.id}`, signedHeaders(me.key, logout)).expect(401)).body.code).toBe('WALLET_SIGNATURE_INVALID');
  });

  test('the public header name Grid-Wallet-Signature is accepted', async () => {
    const { api, me } = await loggedIn();
    const { body, challenge, path } = await pendingRefresh(api, me);
    await api.post(path, body, { 'Grid-Wallet-Signature': stamp(me.key, challenge.payloadToSign), 'Request-Id': challenge.requestId }).expect(201);
  });

  test('the legacy literal sandbox-valid-signature is accepted in the sandbox only', async () => {
    const { api, walletId, me } = await loggedIn();
    const logout = (await api.delete(`/auth/sessions/${me.session.id}`).expect(202)).body;
    await api.delete(`/auth/sessions/${me.session.id}`, { 'Svc-Wallet-Signature': 'sandbox-valid-signature', 'Request-Id': logout.requestId }).expect(204);
    expect(await sessionsOf(api, walletId)).toEqual([]);

    // Production: the same literal is no stamp. (A production session, written directly: OTP delivery needs a provider.)
    const prod = await h.platform({ embeddedWalletsSupported: true, environment: 'PRODUCTION' });
    const { walletId: prodWallet } = await customerWithWallet(h, prod.platform.id);
    const em = h.orm.em.fork();
    const credential = await em.findOneOrFail(AuthCredential, { accountId: prodWallet });
    const now = new Date();
    const session = em.create(AuthSession, {
      id: newId('Session'),
      platformId: prod.platform.id,
      accountId: prodWallet,
      credentialId: credential.id,
      publicKey: newDeviceKey().publicKey,
      expiresAt: new Date(now.getTime() + 60_000),
      revokedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await em.flush();
    const pending = (await prod.api.delete(`/auth/sessions/${session.id}`).expect(202)).body;
    const refused = await prod.api
      .delete(`/auth/sessions/${session.id}`, { 'Svc-Wallet-Signature': 'sandbox-valid-signature', 'Request-Id': pending.requestId })
      .expect(401);
    expect(refused.body.code).toBe('WALLET_SIGNATURE_MALFORMED');
  });

  test('the legacy literal needs an active session of the wallet, which then counts as the signer; it never stands for a bound key', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const { walletId } = await customerWithWallet(h, platform.id);
    const [email] = (await api.get(`/auth/credentials?accountId=${walletId}`).expect(200)).body.data;
    const legacy = (requestId: string) => ({ 'Svc-Wallet-Signature': 'sandbox-valid-signature', 'Request-Id': requestId });
    const add = { type: 'SMS_OTP', accountId: walletId };

    // A wallet that never had a session: nobody the literal could stand for, and nothing is added.
    const first = (await api.post('/auth/credentials', add).expect(202)).body;
    const refused = await api.post('/auth/credentials', add, legacy(first.requestId)).expect(401);
    expect(refused.body).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID', reason: expect.stringContaining('active session') });
    expect(await h.orm.em.fork().count(AuthCredential, { accountId: walletId, type: 'SMS_OTP' })).toBe(0);

    // An OTP login's retry is bound to the client's key: the literal does not replace that stamp.
    const key = newDeviceKey();
    const challenge = await api.post(`/auth/credentials/${email.id}/challenge`, {}).expect(200);
    const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp(challenge.body.otpEncryptionTargetBundle, SANDBOX_OTP, key.publicKey) };
    const pending = (await api.post(`/auth/credentials/${email.id}/verify`, body).expect(202)).body;
    expect((await api.post(`/auth/credentials/${email.id}/verify`, body, legacy(pending.requestId)).expect(401)).body.code).toBe('WALLET_SIGNATURE_INVALID');
    expect(await sessionsOf(api, walletId)).toEqual([]);

    // With a session, the literal signs as that session (the request still waits: a refused retry leaves it usable).
    const me = await otpLogin(api, email.id);
    await api.post('/auth/credentials', add, legacy(first.requestId)).expect(201);
    expect((await h.orm.em.fork().findOneOrFail(SignedRequest, { id: first.requestId })).signedBySessionId).toBe(me.session.id);
  });

  test('100 concurrent signed retries of one request have one effect', async () => {
    const { api, walletId, me } = await loggedIn();
    const { body, challenge, path } = await pendingRefresh(api, me);
    const headers = signedHeaders(me.key, challenge);
    const results = await Promise.all(Array.from({ length: 100 }, () => api.post(path, body, headers)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 401)).toBe(true);
    const sessions = await sessionsOf(api, walletId);
    expect(sessions.map((s) => s.id)).toEqual([results.find((r) => r.status === 201)!.body.id]);
    expect(await h.orm.em.fork().count(AuthSession, { accountId: walletId })).toBe(2);
  });
});

function decode(header: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>;
}

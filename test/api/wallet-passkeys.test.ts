import { p256 } from '@noble/curves/nist.js';
import { Harness } from '../support/harness';
import { ClientKeyPair } from '../support/wallet/client-keys';
import { SoftwareAuthenticator } from '../support/wallet/passkey-authenticator';
import { passkeyLogin, registerFirstPasskey, registrationChallenge, signedInWallet, walletCustomer } from '../support/wallet/passkey-login';
import { signedHeaders } from '../support/wallet/stamp';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
}, 120_000);
afterAll(async () => {
  await h.stop();
});

const walletPlatform = (environment: 'SANDBOX' | 'PRODUCTION' = 'SANDBOX') => h.platform({ embeddedWalletsSupported: true, environment });
type Api = Awaited<ReturnType<Harness['platform']>>['api'];

async function challengeFor(api: Api, credentialId: string, client = new ClientKeyPair()) {
  const res = await api.post(`/auth/credentials/${credentialId}/challenge`, { clientPublicKey: client.publicKeyHex });
  expect(res.status).toBe(200);
  return { client, challenge: res.body as { challenge: string; requestId: string; credentialId: string; expiresAt: string } };
}

const verify = (api: Api, credentialId: string, assertion: unknown, requestId?: string) =>
  api.post(`/auth/credentials/${credentialId}/verify`, { type: 'PASSKEY', assertion }, requestId ? { 'Request-Id': requestId } : {});

describe('passkey registration', () => {
  test('a real attestation registers the passkey (201, AuthMethod with the WebAuthn credentialId)', async () => {
    const { api } = await walletPlatform();
    const { walletId } = await walletCustomer(api);
    const authenticator = new SoftwareAuthenticator();
    const challenge = registrationChallenge();
    const res = await api.post('/auth/credentials', {
      type: 'PASSKEY',
      accountId: walletId,
      nickname: 'My phone',
      challenge,
      attestation: authenticator.register(challenge),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^AuthMethod:/),
      accountId: walletId,
      type: 'PASSKEY',
      nickname: 'My phone',
      credentialId: authenticator.credentialId,
    });
    const listed = await api.get(`/auth/credentials?accountId=${encodeURIComponent(walletId)}`);
    expect(listed.body.data.map((c: { type: string }) => c.type)).toEqual(['PASSKEY']);
  });

  test('an attestation for another challenge or origin is refused (401) and nothing is stored', async () => {
    const { api } = await walletPlatform();
    const { walletId } = await walletCustomer(api);
    const authenticator = new SoftwareAuthenticator();
    const challenge = registrationChallenge();
    for (const attestation of [authenticator.register(registrationChallenge()), authenticator.register(challenge, { origin: 'https://evil.example' })]) {
      const res = await api.post('/auth/credentials', { type: 'PASSKEY', accountId: walletId, nickname: 'My phone', challenge, attestation });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    }
    expect((await api.get(`/auth/credentials?accountId=${encodeURIComponent(walletId)}`)).body.data).toEqual([]);
  });

  test('one passkey per customer: a second one, even signed, is 409 PASSKEY_ALREADY_ENROLLED', async () => {
    const { api } = await walletPlatform();
    const { walletId, key } = await signedInWallet(api);
    const challenge = registrationChallenge();
    const body = { type: 'PASSKEY', accountId: walletId, nickname: 'Laptop', challenge, attestation: new SoftwareAuthenticator().register(challenge) };
    const first = await api.post('/auth/credentials', body);
    if (first.status === 202) {
      const retry = await api.post('/auth/credentials', body, signedHeaders(key, first.body));
      expect(retry.status).toBe(409);
      expect(retry.body.code).toBe('PASSKEY_ALREADY_ENROLLED');
    } else {
      expect(first.status).toBe(409);
      expect(first.body.code).toBe('PASSKEY_ALREADY_ENROLLED');
    }
  });

  test("a WebAuthn credentialId already registered (another customer's wallet) is 400 PASSKEY_CREDENTIAL_ALREADY_EXISTS", async () => {
    const { api } = await walletPlatform();
    const first = await walletCustomer(api);
    const { authenticator } = await registerFirstPasskey(api, first.walletId);
    const second = await walletCustomer(api);
    const challenge = registrationChallenge();
    const res = await api.post('/auth/credentials', {
      type: 'PASSKEY',
      accountId: second.walletId,
      nickname: 'Same key',
      challenge,
      attestation: authenticator.register(challenge),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PASSKEY_CREDENTIAL_ALREADY_EXISTS');
  });
});

describe('passkey login', () => {
  test('challenge → assertion → a session whose signing key is sealed to the clientPublicKey, and signs for the wallet', async () => {
    const { api } = await walletPlatform();
    const { walletId } = await walletCustomer(api);
    const { authenticator, credential } = await registerFirstPasskey(api, walletId);
    const { client, challenge } = await challengeFor(api, credential.id);
    expect(challenge).toMatchObject({
      id: credential.id,
      credentialId: authenticator.credentialId,
      type: 'PASSKEY',
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
      requestId: expect.stringMatching(/^Request:/),
    });
    const res = await verify(api, credential.id, authenticator.assert(challenge.challenge), challenge.requestId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^Session:/),
      accountId: walletId,
      type: 'PASSKEY',
      encryptedSessionSigningKey: expect.any(String),
    });
    const sessionKey = await client.openSessionSigningKey(res.body.encryptedSessionSigningKey);
    await expect(new ClientKeyPair().openSessionSigningKey(res.body.encryptedSessionSigningKey)).rejects.toThrow();
    // The opened key is the session's: it signs a wallet operation.
    const key = { privateKey: sessionKey, publicKey: Buffer.from(p256.getPublicKey(sessionKey, true)).toString('hex'), uncompressedPublicKey: '' };
    const exportBody = { clientPublicKey: new ClientKeyPair().publicKeyHex };
    const first = await api.post(`/internal-accounts/${walletId}/export`, exportBody);
    expect(first.status).toBe(202);
    const retry = await api.post(`/internal-accounts/${walletId}/export`, exportBody, signedHeaders(key, first.body));
    expect(retry.status).toBe(200);
  });

  test.each([
    ['wrong origin', { origin: 'https://evil.example' }, 'origin'],
    ['wrong RP id', { rpId: 'evil.example' }, 'relying party'],
    ['no user presence', { userPresent: false }, 'user presence'],
    ['bad signature', { signingKey: p256.utils.randomSecretKey() }, 'signature'],
  ])('%s: 401 UNAUTHORIZED naming the check only (never the expected origin, RP id or challenge), no session', async (_name, options, check) => {
    const { api } = await walletPlatform();
    const { walletId } = await walletCustomer(api);
    const { authenticator, credential } = await registerFirstPasskey(api, walletId);
    const { challenge } = await challengeFor(api, credential.id);
    const res = await verify(api, credential.id, authenticator.assert(challenge.challenge, options), challenge.requestId);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
    expect(res.body.message).toBe(`The passkey assertion was refused: ${check} check failed`);
    expect(res.text).not.toContain('localhost');
    expect((await api.get(`/auth/sessions?accountId=${encodeURIComponent(walletId)}`)).body.data).toEqual([]);
  });

  test('an assertion over another challenge than the Request-Id names is refused', async () => {
    const { api } = await walletPlatform();
    const { walletId } = await walletCustomer(api);
    const { authenticator, credential } = await registerFirstPasskey(api, walletId);
    const first = await challengeFor(api, credential.id);
    const second = await challengeFor(api, credential.id);
    const res = await verify(api, credential.id, authenticator.assert(first.challenge.challenge), second.challenge.requestId);
    expect(res.status).toBe(401);
    expect(res.body.reason).toMatch(/challenge/);
  });

  test('the signature counter must move forward: a replayed counter (cloned authenticator) is refused', async () => {
    const { api } = await walletPlatform();
    const { walletId } = await walletCustomer(api);
    const { authenticator, credential } = await registerFirstPasskey(api, walletId);
    await passkeyLogin(api, credential.id, authenticator); // counter 1
    const { challenge } = await challengeFor(api, credential.id);
    const res = await verify(api, credential.id, authenticator.assert(challenge.challenge, { counter: 1 }), challenge.requestId);
    expect(res.status).toBe(401);
    expect(res.body.reason).toMatch(/counter/);
  });

  test('Request-Id: missing is 401 REQUEST_ID_MISSING; a used one is refused (no second session from one challenge)', async () => {
    const { api } = await walletPlatform();
    const { walletId } = await walletCustomer(api);
    const { authenticator, credential } = await registerFirstPasskey(api, walletId);
    const { challenge } = await challengeFor(api, credential.id);
    const missing = await verify(api, credential.id, authenticator.assert(challenge.challenge));
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('REQUEST_ID_MISSING');
    expect((await verify(api, credential.id, authenticator.assert(challenge.challenge), challenge.requestId)).status).toBe(200);
    const replay = await verify(api, credential.id, authenticator.assert(challenge.challenge), challenge.requestId);
    expect(replay.status).toBe(401);
    expect(replay.body.reason).toMatch(/already used/);
  });

  test('the challenge needs a P-256 clientPublicKey', async () => {
    const { api } = await walletPlatform();
    const { walletId } = await walletCustomer(api);
    const { credential } = await registerFirstPasskey(api, walletId);
    for (const body of [{}, { clientPublicKey: 'abc' }]) {
      const res = await api.post(`/auth/credentials/${credential.id}/challenge`, body);
      expect(res.status).toBe(400);
      expect(res.body.details.errors[0].field).toBe('clientPublicKey');
    }
  });

  test('the legacy sandbox assertion signature is accepted in the sandbox only', async () => {
    for (const environment of ['SANDBOX', 'PRODUCTION'] as const) {
      const { api } = await walletPlatform(environment);
      const { walletId } = await walletCustomer(api);
      const { authenticator, credential } = await registerFirstPasskey(api, walletId);
      const { challenge } = await challengeFor(api, credential.id);
      const res = await verify(
        api,
        credential.id,
        { ...authenticator.assert(challenge.challenge), signature: 'sandbox-valid-passkey-signature' },
        challenge.requestId,
      );
      expect(res.status).toBe(environment === 'SANDBOX' ? 200 : 401);
    }
  });

  test("tenant isolation: another platform cannot register on, challenge or verify a wallet's passkey", async () => {
    const { api } = await walletPlatform();
    const { api: other } = await walletPlatform();
    const { walletId } = await walletCustomer(api);
    const { authenticator, credential } = await registerFirstPasskey(api, walletId);
    const { challenge } = await challengeFor(api, credential.id);
    const reg = registrationChallenge();
    expect(
      (
        await other.post('/auth/credentials', {
          type: 'PASSKEY',
          accountId: walletId,
          nickname: 'x',
          challenge: reg,
          attestation: new SoftwareAuthenticator().register(reg),
        })
      ).status,
    ).toBe(404);
    expect((await other.post(`/auth/credentials/${credential.id}/challenge`, { clientPublicKey: new ClientKeyPair().publicKeyHex })).status).toBe(404);
    expect((await verify(other, credential.id, authenticator.assert(challenge.challenge), challenge.requestId)).status).toBe(404);
    // The owner's challenge is still unused.
    expect((await verify(api, credential.id, authenticator.assert(challenge.challenge), challenge.requestId)).status).toBe(200);
  });
});

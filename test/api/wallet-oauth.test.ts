import { generateKeyPair } from 'jose';
import { oidcNonceFor } from '../../src/contexts/wallet-auth/domain/oidc-claims';
import { Harness } from '../support/harness';
import { ClientKeyPair } from '../support/wallet/client-keys';
import { LocalOidcIssuer } from '../support/wallet/oidc-issuer';
import { signedInWallet, walletCustomer } from '../support/wallet/passkey-login';
import { signedHeaders } from '../support/wallet/stamp';

let h: Harness;
const issuer = new LocalOidcIssuer('https://issuer.test.example', 'wallet-app');
beforeAll(async () => {
  h = await Harness.start();
  // The service's production path fetches the issuer's JWKS from the issuer (here, a loopback server).
  h.deps.walletAuth = { passkeyRpId: 'localhost', passkeyOrigins: ['http://localhost'], oidcIssuers: { [issuer.issuer]: { jwksUrl: await issuer.start() } } };
}, 120_000);
afterAll(async () => {
  await issuer.stop();
  await h.stop();
});

const walletPlatform = (environment: 'SANDBOX' | 'PRODUCTION' = 'SANDBOX') => h.platform({ embeddedWalletsSupported: true, environment });
type Api = Awaited<ReturnType<Harness['platform']>>['api'];
const now = () => Math.floor(Date.now() / 1000);

async function registerOauth(api: Api, walletId: string, token?: string) {
  return api.post('/auth/credentials', { type: 'OAUTH', accountId: walletId, oidcToken: token ?? (await issuer.token()) });
}

async function oauthWallet(api: Api) {
  const { walletId } = await walletCustomer(api);
  const res = await registerOauth(api, walletId);
  expect(res.status).toBe(201);
  return { walletId, credentialId: res.body.id as string };
}

const verify = (api: Api, credentialId: string, oidcToken: string, clientPublicKey: string) =>
  api.post(`/auth/credentials/${credentialId}/verify`, { type: 'OAUTH', oidcToken, clientPublicKey });

describe('OAUTH registration', () => {
  test('a fresh token of a supported issuer registers its identity; the nickname is the email claim', async () => {
    const { api } = await walletPlatform();
    const { walletId } = await walletCustomer(api);
    const res = await registerOauth(api, walletId);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^AuthMethod:/), accountId: walletId, type: 'OAUTH', nickname: 'user@example.com' });
  });

  test('an additional OAUTH credential goes through the signed retry', async () => {
    const { api } = await walletPlatform();
    const { walletId, key } = await signedInWallet(api);
    const body = { type: 'OAUTH', accountId: walletId, oidcToken: await issuer.token() };
    const first = await api.post('/auth/credentials', body);
    expect(first.status).toBe(202);
    const retry = await api.post('/auth/credentials', body, signedHeaders(key, first.body));
    expect(retry.status).toBe(201);
    expect(retry.body.type).toBe('OAUTH');
  });

  test.each([
    ['stale iat (more than 60 s + 5 s skew old)', () => issuer.token({ iat: now() - 70, exp: now() + 600 }), 401, /stale/],
    ['exp in the past', () => issuer.token({ iat: now() - 10, exp: now() - 1 }), 401, /expired/],
    ['no exp', () => issuer.token({ exp: undefined }), 401, /exp/],
    ['aud with two entries', () => issuer.token({ aud: ['a', 'b'] }), 401, /aud/],
    ['no sub', () => issuer.token({ sub: undefined }), 401, /sub/],
    ['an unsupported issuer', () => issuer.token({ iss: 'https://other.example' }), 400, /not supported/],
    ['a malformed token', async () => 'not.a.jwt', 400, /JWT/],
    ['the old literal sandbox token', async () => 'sandbox-valid-oidc-token', 400, /no longer/],
  ])('%s is refused', async (_name, token, status, reason) => {
    const { api } = await walletPlatform();
    const { walletId } = await walletCustomer(api);
    const res = await registerOauth(api, walletId, await token());
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(status === 400 ? 'INVALID_INPUT' : 'UNAUTHORIZED');
    expect(res.body.reason).toMatch(reason);
  });

  test('a malformed oidcToken is 400 INVALID_INPUT on oidcToken in the sandbox and production alike; nothing is registered', async () => {
    const good = (await issuer.token()).split('.');
    const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
    const malformed = {
      'the old literal sandbox token': 'sandbox-valid-oidc-token',
      'a header that is not JSON': [b64('not json'), good[1], good[2]].join('.'),
      'a header without alg': [b64({ typ: 'JWT' }), good[1], good[2]].join('.'),
      'a signature segment that is not base64url': [good[0], good[1], 'not*base64url!'].join('.'),
      'a payload that is not an object': [good[0], b64([1, 2]), good[2]].join('.'),
      'four segments': [...good, good[2]].join('.'),
      'no dots at all': 'eyJhbGciOiJFUzI1NiJ9',
    };
    for (const environment of ['SANDBOX', 'PRODUCTION'] as const) {
      const { api } = await walletPlatform(environment);
      const { walletId } = await walletCustomer(api);
      for (const [what, token] of Object.entries(malformed)) {
        const res = await registerOauth(api, walletId, token);
        expect({ what, environment, status: res.status, code: res.body.code, field: res.body.details?.errors?.[0]?.field }).toEqual({
          what,
          environment,
          status: 400,
          code: 'INVALID_INPUT',
          field: 'oidcToken',
        });
      }
      expect((await api.get(`/auth/credentials?accountId=${walletId}`).expect(200)).body.data.filter((c: { type: string }) => c.type === 'OAUTH')).toEqual([]);
    }
  });

  test("the sandbox skips only the issuer's signature; production checks it against the issuer's JWKS", async () => {
    const forger = (await generateKeyPair('ES256')).privateKey;
    for (const environment of ['SANDBOX', 'PRODUCTION'] as const) {
      const { api } = await walletPlatform(environment);
      const { walletId } = await walletCustomer(api);
      const forged = await registerOauth(api, walletId, await issuer.token({}, { signingKey: forger }));
      expect(forged.status).toBe(environment === 'SANDBOX' ? 201 : 401);
      if (environment === 'PRODUCTION') {
        expect(forged.body.reason).toMatch(/signature/);
        expect((await registerOauth(api, walletId)).status).toBe(201);
      }
    }
  });
});

describe('OAUTH login', () => {
  test('a fresh token of the same identity with nonce = SHA-256(clientPublicKey) opens a session sealed to that key', async () => {
    const { api } = await walletPlatform();
    const { walletId, credentialId } = await oauthWallet(api);
    const client = new ClientKeyPair();
    const res = await verify(api, credentialId, await issuer.token({ nonce: oidcNonceFor(client.publicKeyHex) }), client.publicKeyHex);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^Session:/),
      accountId: walletId,
      type: 'OAUTH',
      encryptedSessionSigningKey: expect.any(String),
    });
    await expect(client.openSessionSigningKey(res.body.encryptedSessionSigningKey)).resolves.toHaveLength(32);
    await expect(new ClientKeyPair().openSessionSigningKey(res.body.encryptedSessionSigningKey)).rejects.toThrow();
  });

  test('a wrong nonce (minted for another key) is refused', async () => {
    const { api } = await walletPlatform();
    const { credentialId } = await oauthWallet(api);
    const client = new ClientKeyPair();
    const res = await verify(api, credentialId, await issuer.token({ nonce: oidcNonceFor(new ClientKeyPair().publicKeyHex) }), client.publicKeyHex);
    expect(res.status).toBe(401);
    expect(res.body.reason).toMatch(/nonce/);
  });

  test('a token of another identity (other sub) is refused', async () => {
    const { api } = await walletPlatform();
    const { credentialId } = await oauthWallet(api);
    const client = new ClientKeyPair();
    const res = await verify(api, credentialId, await issuer.token({ sub: 'someone-else', nonce: oidcNonceFor(client.publicKeyHex) }), client.publicKeyHex);
    expect(res.status).toBe(401);
    expect(res.body.reason).toMatch(/identity/);
  });

  test('a stale token is refused at login too', async () => {
    const { api } = await walletPlatform();
    const { credentialId } = await oauthWallet(api);
    const client = new ClientKeyPair();
    const res = await verify(api, credentialId, await issuer.token({ iat: now() - 120, nonce: oidcNonceFor(client.publicKeyHex) }), client.publicKeyHex);
    expect(res.status).toBe(401);
    expect(res.body.reason).toMatch(/stale/);
  });

  test('tenant isolation: another platform can neither register on the wallet nor log in with its credential', async () => {
    const { api } = await walletPlatform();
    const { api: other } = await walletPlatform();
    const { walletId, credentialId } = await oauthWallet(api);
    expect((await registerOauth(other, walletId)).status).toBe(404);
    const client = new ClientKeyPair();
    expect((await verify(other, credentialId, await issuer.token({ nonce: oidcNonceFor(client.publicKeyHex) }), client.publicKeyHex)).status).toBe(404);
  });
});

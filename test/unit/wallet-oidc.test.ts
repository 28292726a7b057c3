import { generateKeyPair } from 'jose';
import { checkOidcClaims, oidcNonceFor, type OidcClaimsRules } from '../../src/contexts/wallet-auth/domain/oidc-claims';
import { checkOidcToken, LEGACY_SANDBOX_OIDC_TOKEN } from '../../src/contexts/wallet-auth/services/oidc-tokens';
import type { WalletAuthConfig } from '../../src/contexts/wallet-auth/services/wallet-auth-config';
import { loadWalletAuthConfig } from '../../src/contexts/wallet-auth/services/wallet-auth-config';
import { LocalOidcIssuer } from '../support/wallet/oidc-issuer';

const NOW = 1_800_000_000;
const ISS = 'https://issuer.test.example';
const good = { iss: ISS, aud: 'app', sub: 'user-1', iat: NOW, exp: NOW + 300 };
const rules: OidcClaimsRules = { supportedIssuers: [ISS], nowSeconds: NOW };
const reasonOf = (claims: Record<string, unknown>, extra: Partial<OidcClaimsRules> = {}) => {
  const result = checkOidcClaims(claims, { ...rules, ...extra });
  return result.ok ? 'ok' : `${result.refusal.kind}: ${result.refusal.reason}`;
};

describe('OIDC claim rules (spec §5.5)', () => {
  test('a fresh token from a supported issuer gives its identity iss+aud+sub', () => {
    expect(checkOidcClaims({ ...good, email: 'a@b.c' }, rules)).toEqual({ ok: true, identity: { iss: ISS, aud: 'app', sub: 'user-1' }, email: 'a@b.c' });
  });

  test('aud may be a one-element array; an empty or longer array, or none, is refused', () => {
    expect(reasonOf({ ...good, aud: ['app'] })).toBe('ok');
    expect(reasonOf({ ...good, aud: [] })).toMatch(/^unauthorized: .*aud/);
    expect(reasonOf({ ...good, aud: ['app', 'other'] })).toMatch(/^unauthorized: .*aud/);
    expect(reasonOf({ ...good, aud: '' })).toMatch(/^unauthorized: .*aud/);
    expect(reasonOf({ ...good, aud: undefined })).toMatch(/^unauthorized: .*aud/);
  });

  test('an unsupported or missing issuer is bad input', () => {
    expect(reasonOf({ ...good, iss: 'https://evil.example' })).toMatch(/^unsupported-issuer: /);
    expect(reasonOf({ ...good, iss: undefined })).toMatch(/^malformed: /);
  });

  test('sub must be a non-empty string', () => {
    expect(reasonOf({ ...good, sub: '' })).toMatch(/^unauthorized: .*sub/);
    expect(reasonOf({ ...good, sub: 42 })).toMatch(/^unauthorized: .*sub/);
  });

  test('iat: at most 60 s old with 5 s of skew; numeric; not in the future beyond the skew', () => {
    expect(reasonOf({ ...good, iat: NOW - 65 })).toBe('ok');
    expect(reasonOf({ ...good, iat: NOW - 66 })).toMatch(/^unauthorized: .*stale/);
    expect(reasonOf({ ...good, iat: NOW + 5 })).toBe('ok');
    expect(reasonOf({ ...good, iat: NOW + 6 })).toMatch(/^unauthorized: .*future/);
    expect(reasonOf({ ...good, iat: String(NOW) })).toMatch(/^unauthorized: .*iat/);
  });

  test('exp must be a number after now', () => {
    expect(reasonOf({ ...good, exp: NOW })).toMatch(/^unauthorized: .*expired/);
    expect(reasonOf({ ...good, exp: undefined })).toMatch(/^unauthorized: .*exp/);
  });

  test('on verify: the same identity and nonce = SHA-256 hex of the exact clientPublicKey', () => {
    const identity = { iss: ISS, aud: 'app', sub: 'user-1' };
    const key = `04${'ab'.repeat(64)}`;
    const nonce = oidcNonceFor(key);
    expect(nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(reasonOf({ ...good, nonce }, { identity, nonce })).toBe('ok');
    expect(reasonOf({ ...good, nonce: oidcNonceFor(key.toUpperCase()) }, { identity, nonce })).toMatch(/^unauthorized: .*nonce/);
    expect(reasonOf({ ...good }, { identity, nonce })).toMatch(/^unauthorized: .*nonce/);
    expect(reasonOf({ ...good, sub: 'user-2', nonce }, { identity, nonce })).toMatch(/^unauthorized: .*identity/);
    expect(reasonOf({ ...good, aud: 'other-app', nonce }, { identity, nonce })).toMatch(/^unauthorized: .*identity/);
  });
});

describe('checkOidcToken', () => {
  const issuer = new LocalOidcIssuer(ISS, 'app');
  let inline: WalletAuthConfig;
  let served: WalletAuthConfig;
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    inline = { passkeyRpId: 'localhost', passkeyOrigins: [], oidcIssuers: { [ISS]: { jwks: await issuer.jwks() } } };
    served = { passkeyRpId: 'localhost', passkeyOrigins: [], oidcIssuers: { [ISS]: { jwksUrl: await issuer.start() } } };
  });
  afterAll(() => issuer.stop());

  test("production verifies the issuer's signature, with inline keys or the issuer's JWKS URL", async () => {
    const token = await issuer.token();
    for (const config of [inline, served]) {
      await expect(checkOidcToken(config, token, { environment: 'PRODUCTION', nowSeconds: now() })).resolves.toEqual({
        identity: { iss: ISS, aud: 'app', sub: 'user-123' },
        email: 'user@example.com',
      });
    }
  });

  test('production refuses a token signed with another key (401); the sandbox skips only that check', async () => {
    const forged = await issuer.token({}, { signingKey: (await generateKeyPair('ES256')).privateKey });
    for (const config of [inline, served]) {
      await expect(checkOidcToken(config, forged, { environment: 'PRODUCTION', nowSeconds: now() })).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
        reason: expect.stringMatching(/signature/),
      });
    }
    await expect(checkOidcToken(inline, forged, { environment: 'SANDBOX', nowSeconds: now() })).resolves.toMatchObject({ identity: { sub: 'user-123' } });
    const stale = await issuer.token({ iat: now() - 120 }, { signingKey: (await generateKeyPair('ES256')).privateKey });
    await expect(checkOidcToken(inline, stale, { environment: 'SANDBOX', nowSeconds: now() })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      reason: expect.stringMatching(/stale/),
    });
  });

  test('a malformed token (the legacy literal among them) or an unsupported issuer is 400 INVALID_INPUT', async () => {
    await expect(checkOidcToken(inline, 'not-a-jwt', { environment: 'SANDBOX', nowSeconds: now() })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      details: { errors: [expect.objectContaining({ field: 'oidcToken' })] },
    });
    const foreign = await issuer.token({ iss: 'https://other.example' });
    await expect(checkOidcToken(inline, foreign, { environment: 'SANDBOX', nowSeconds: now() })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(checkOidcToken(inline, LEGACY_SANDBOX_OIDC_TOKEN, { environment: 'SANDBOX', nowSeconds: now() })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      reason: expect.stringMatching(/no longer/),
    });
  });

  test('configuration: default issuers are the reference sandbox ones; OIDC_ISSUERS replaces them', () => {
    expect(Object.keys(loadWalletAuthConfig({}).oidcIssuers)).toEqual(['https://accounts.google.com', 'accounts.google.com', 'https://appleid.apple.com']);
    const config = loadWalletAuthConfig({
      OIDC_ISSUERS: JSON.stringify({ [ISS]: { jwksUrl: 'https://issuer.test.example/jwks' } }),
      PASSKEY_RP_ID: 'wallet.example',
    });
    expect(config).toEqual({
      passkeyRpId: 'wallet.example',
      passkeyOrigins: ['https://wallet.example'],
      oidcIssuers: { [ISS]: { jwksUrl: 'https://issuer.test.example/jwks' } },
    });
    expect(() => loadWalletAuthConfig({ OIDC_ISSUERS: '{"x": {}}' })).toThrow(/jwksUrl/);
  });
});

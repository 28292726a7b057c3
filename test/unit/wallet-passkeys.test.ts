import { p256 } from '@noble/curves/nist.js';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import {
  LEGACY_SANDBOX_PASSKEY_SIGNATURE,
  verifyPasskeyAssertion,
  verifyPasskeyRegistration,
  type RegisteredPasskey,
} from '../../src/contexts/wallet-auth/services/passkeys';
import type { WalletAuthConfig } from '../../src/contexts/wallet-auth/services/wallet-auth-config';
import { SoftwareAuthenticator } from '../support/wallet/passkey-authenticator';

const config: WalletAuthConfig = { passkeyRpId: 'wallet.example', passkeyOrigins: ['https://wallet.example'], oidcIssuers: {} };
const CHALLENGE = 'ab'.repeat(32);

async function registered(): Promise<{ authenticator: SoftwareAuthenticator; passkey: RegisteredPasskey }> {
  const authenticator = new SoftwareAuthenticator('wallet.example', 'https://wallet.example');
  const challenge = isoBase64URL.fromUTF8String('registration-challenge');
  const passkey = await verifyPasskeyRegistration(config, challenge, authenticator.register(challenge));
  return { authenticator, passkey };
}

const check = (passkey: RegisteredPasskey, environment: 'SANDBOX' | 'PRODUCTION' = 'PRODUCTION') => ({ environment, challenge: CHALLENGE, passkey });

describe('passkey registration', () => {
  test('a real attestation registers the credential id, its COSE key and counter', async () => {
    const { authenticator, passkey } = await registered();
    expect(passkey).toEqual({ credentialId: authenticator.credentialId, publicKey: expect.any(String), counter: 0, transports: ['internal'] });
  });

  test('the wrong challenge, origin or RP id, or no user presence, is refused', async () => {
    const authenticator = new SoftwareAuthenticator('wallet.example', 'https://wallet.example');
    const challenge = isoBase64URL.fromUTF8String('registration-challenge');
    const cases: [Parameters<SoftwareAuthenticator['register']>, RegExp][] = [
      [[isoBase64URL.fromUTF8String('another')], /challenge/],
      [[challenge, { origin: 'https://evil.example' }], /origin/],
      [[challenge, { rpId: 'evil.example' }], /relying party/],
      [[challenge, { userPresent: false }], /user presence check failed/],
    ];
    for (const [args, reason] of cases) {
      await expect(verifyPasskeyRegistration(config, challenge, authenticator.register(...args))).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
        reason: expect.stringMatching(reason),
      });
    }
  });
});

describe('passkey assertion', () => {
  test('a real assertion over the challenge verifies and moves the counter forward', async () => {
    const { authenticator, passkey } = await registered();
    await expect(verifyPasskeyAssertion(config, authenticator.assert(CHALLENGE), check(passkey))).resolves.toEqual({ counter: 1 });
  });

  test.each([
    ['wrong origin', { origin: 'https://evil.example' }, /origin/],
    ['wrong RP id', { rpId: 'evil.example' }, /relying party/],
    ['no user presence', { userPresent: false }, /user presence check failed/],
    ['bad signature', { signingKey: p256.utils.randomSecretKey() }, /signature|verif/],
  ])('%s is refused with 401', async (_name, options, reason) => {
    const { authenticator, passkey } = await registered();
    await expect(verifyPasskeyAssertion(config, authenticator.assert(CHALLENGE, options), check(passkey))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      reason: expect.stringMatching(reason),
    });
  });

  test('an assertion over another challenge is refused', async () => {
    const { authenticator, passkey } = await registered();
    await expect(verifyPasskeyAssertion(config, authenticator.assert('cd'.repeat(32)), check(passkey))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      reason: expect.stringMatching(/challenge/),
    });
  });

  test('a counter that does not move forward (a cloned authenticator) is refused', async () => {
    const { authenticator, passkey } = await registered();
    const stored = { ...passkey, counter: 5 };
    await expect(verifyPasskeyAssertion(config, authenticator.assert(CHALLENGE, { counter: 5 }), check(stored))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      reason: expect.stringMatching(/counter/),
    });
    await expect(verifyPasskeyAssertion(config, authenticator.assert(CHALLENGE, { counter: 4 }), check(stored))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(verifyPasskeyAssertion(config, authenticator.assert(CHALLENGE, { counter: 6 }), check(stored))).resolves.toEqual({ counter: 6 });
  });

  test("another passkey's assertion is refused", async () => {
    const { passkey } = await registered();
    const other = await registered();
    await expect(verifyPasskeyAssertion(config, other.authenticator.assert(CHALLENGE), check(passkey))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  test('the legacy sandbox signature is accepted in the sandbox only', async () => {
    const { authenticator, passkey } = await registered();
    const legacy = { ...authenticator.assert(CHALLENGE), signature: LEGACY_SANDBOX_PASSKEY_SIGNATURE };
    await expect(verifyPasskeyAssertion(config, legacy, check(passkey, 'SANDBOX'))).resolves.toEqual({ counter: 0 });
    await expect(verifyPasskeyAssertion(config, legacy, check(passkey, 'PRODUCTION'))).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

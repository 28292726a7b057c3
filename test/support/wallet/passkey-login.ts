import { p256 } from '@noble/curves/nist.js';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { randomBytes } from 'node:crypto';
import type { Api } from '../harness';
import { ClientKeyPair } from './client-keys';
import type { DeviceKey } from './keys';
import { SoftwareAuthenticator } from './passkey-authenticator';

/** A registration challenge as the platform's backend issues one: random, base64url. */
export const registrationChallenge = () => isoBase64URL.fromBuffer(randomBytes(32));

/** The device key of a session whose private key the service sealed to the client (passkey and OAuth logins). */
export function deviceKeyOf(sessionPrivateKey: Uint8Array): DeviceKey {
  return {
    privateKey: sessionPrivateKey,
    publicKey: Buffer.from(p256.getPublicKey(sessionPrivateKey, true)).toString('hex'),
    uncompressedPublicKey: Buffer.from(p256.getPublicKey(sessionPrivateKey, false)).toString('hex'),
  };
}

/** A customer without email (so its wallet starts with no credential) and its embedded wallet's id. */
export async function walletCustomer(api: Api): Promise<{ customerId: string; walletId: string }> {
  const created = await api.post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `w-${randomBytes(6).toString('hex')}`,
    fullName: 'Ada Lovelace',
  });
  if (created.status !== 201) throw new Error(`customer: ${created.status} ${JSON.stringify(created.body)}`);
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(created.body.id)}&type=EMBEDDED_WALLET`);
  const walletId = accounts.body.data[0]?.id as string | undefined;
  if (!walletId) throw new Error('no embedded wallet: create the platform with embeddedWalletsSupported');
  return { customerId: created.body.id as string, walletId };
}

/** Registers a passkey as the wallet's first credential (201, no signature needed). */
export async function registerFirstPasskey(api: Api, walletId: string, authenticator = new SoftwareAuthenticator()) {
  const challenge = registrationChallenge();
  const res = await api.post('/auth/credentials', {
    type: 'PASSKEY',
    accountId: walletId,
    nickname: 'My phone',
    challenge,
    attestation: authenticator.register(challenge),
  });
  if (res.status !== 201) throw new Error(`passkey registration: ${res.status} ${JSON.stringify(res.body)}`);
  return { authenticator, credential: res.body as { id: string; credentialId: string } };
}

/** A full passkey login: challenge bound to a fresh client key, assertion, the sealed session key opened. */
export async function passkeyLogin(api: Api, credentialId: string, authenticator: SoftwareAuthenticator) {
  const client = new ClientKeyPair();
  const challenge = await api.post(`/auth/credentials/${credentialId}/challenge`, { clientPublicKey: client.publicKeyHex });
  if (challenge.status !== 200) throw new Error(`challenge: ${challenge.status} ${JSON.stringify(challenge.body)}`);
  const verified = await api.post(
    `/auth/credentials/${credentialId}/verify`,
    { type: 'PASSKEY', assertion: authenticator.assert(challenge.body.challenge) },
    { 'Request-Id': challenge.body.requestId },
  );
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
  return {
    session: verified.body as { id: string; expiresAt: string },
    key: deviceKeyOf(await client.openSessionSigningKey(verified.body.encryptedSessionSigningKey)),
  };
}

/** A wallet with a passkey and an open session: what the signed-operation tests start from. */
export async function signedInWallet(api: Api) {
  const wallet = await walletCustomer(api);
  const { authenticator, credential } = await registerFirstPasskey(api, wallet.walletId);
  const { session, key } = await passkeyLogin(api, credential.id, authenticator);
  return { ...wallet, authenticator, credential, session, key };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash } from 'node:crypto';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import type { Environment } from '../../platforms';
import { InternalAccount } from '../../ledger';
import { SIGNED_REQUEST_TTL_MS } from '../domain/auth-methods';
import { AuthCredential, SignedRequest } from '../entities';
import { verifyPasskeyAssertion, verifyPasskeyRegistration, type PasskeyAssertion, type PasskeyAttestation, type RegisteredPasskey } from './passkeys';
import { openSealedSession, type SealedSessionView } from './sealed-sessions';
import type { WalletAuthConfig } from './wallet-auth-config';

/** The pending passkey login a challenge opens; its id is the `Request-Id` the verify call echoes. */
export const PASSKEY_SESSION_OPERATION = 'PASSKEY_SESSION';
const SESSION_ACTIVITY = 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2';

export interface PasskeyRegistration {
  nickname: string;
  challenge: string;
  attestation: PasskeyAttestation;
}

/**
 * The enrolment rules of a verified passkey, in the caller's transaction (run at each leg of a
 * signed registration): a WebAuthn credential id registered once (400
 * PASSKEY_CREDENTIAL_ALREADY_EXISTS) and one passkey per customer, over all the customer's
 * wallets (409 PASSKEY_ALREADY_ENROLLED).
 */
export async function assertPasskeyEnrolable(tx: EntityManager, wallet: InternalAccount, credentialId: string): Promise<void> {
  // One registration at a time per customer (and per credential id), so that neither rule is raced past.
  await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`passkey:${wallet.platformId}:${wallet.customerId ?? wallet.id}`]);
  // Unique across the service, as its index is: only the authenticator's holder can attest its id, so saying it is taken tells nobody else anything.
  await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`passkey-id:${credentialId}`]);
  if (await tx.count(AuthCredential, { passkeyCredentialId: credentialId, revokedAt: null })) {
    throw new DomainError('PASSKEY_CREDENTIAL_ALREADY_EXISTS', 'A passkey with this credentialId is already registered');
  }
  const wallets = wallet.customerId
    ? (await tx.find(InternalAccount, { platformId: wallet.platformId, customerId: wallet.customerId, type: 'EMBEDDED_WALLET' }, { fields: ['id'] })).map(
        (w) => w.id,
      )
    : [wallet.id];
  if (await tx.count(AuthCredential, { accountId: { $in: wallets }, type: 'PASSKEY', revokedAt: null })) {
    throw new DomainError('PASSKEY_ALREADY_ENROLLED', 'The customer already has a passkey: one passkey per customer (revoke it to enroll another)');
  }
}

/** Checks a registration's attestation (@simplewebauthn/server) against the challenge the platform issued: the passkey to store. */
export function verifyPasskeyEnrolment(config: WalletAuthConfig, input: PasskeyRegistration): Promise<RegisteredPasskey> {
  return verifyPasskeyRegistration(config, input.challenge, input.attestation);
}

/** Stores a verified passkey on the wallet, after assertPasskeyEnrolable in the same transaction. */
export async function storePasskey(tx: EntityManager, wallet: InternalAccount, nickname: string, passkey: RegisteredPasskey): Promise<AuthCredential> {
  await assertPasskeyEnrolable(tx, wallet, passkey.credentialId);
  const now = new Date();
  const credential = tx.create(AuthCredential, {
    id: newId('AuthMethod'),
    platformId: wallet.platformId,
    accountId: wallet.id,
    type: 'PASSKEY',
    nickname,
    passkeyCredentialId: passkey.credentialId,
    passkeyPublicKey: passkey.publicKey,
    passkeyCounter: BigInt(passkey.counter),
    challengeAttempts: 0,
    revokedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await tx.flush();
  return credential;
}

function registeredPasskey(credential: AuthCredential): RegisteredPasskey {
  if (!credential.passkeyCredentialId || !credential.passkeyPublicKey) throw DomainError.internal('The passkey credential has no key');
  return {
    credentialId: credential.passkeyCredentialId,
    publicKey: credential.passkeyPublicKey,
    counter: Number(credential.passkeyCounter ?? 0n),
    transports: [],
  };
}

export interface PasskeyChallenge {
  challenge: string;
  requestId: string;
  expiresAt: string;
}

/**
 * `POST /auth/credentials/{id}/challenge` of a passkey: a pending login bound to the
 * clientPublicKey its session key will be sealed to. The challenge is the lowercase hex SHA-256
 * of the canonical session-creation request (which embeds the clientPublicKey and the request
 * id), so an assertion over it authorises exactly that session for exactly that key.
 */
export async function issuePasskeyChallenge(em: EntityManager, credential: AuthCredential, clientPublicKey: string): Promise<PasskeyChallenge> {
  registeredPasskey(credential);
  const now = new Date();
  const requestId = newId('Request');
  const sessionRequest = JSON.stringify({
    organizationId: credential.accountId,
    parameters: { authMethodId: credential.id, clientPublicKey },
    requestId,
    timestampMs: String(now.getTime()),
    type: SESSION_ACTIVITY,
  });
  const challenge = createHash('sha256').update(sessionRequest, 'utf8').digest('hex');
  const request = em.create(SignedRequest, {
    id: requestId,
    platformId: credential.platformId,
    accountId: credential.accountId,
    operation: PASSKEY_SESSION_OPERATION,
    conflictGroup: null,
    requestHash: challenge,
    payloadToSign: sessionRequest,
    data: { authMethodId: credential.id, clientPublicKey },
    expiresAt: new Date(now.getTime() + SIGNED_REQUEST_TTL_MS),
    consumedAt: null,
    signedBySessionId: null,
    createdAt: now,
  });
  await em.flush();
  return { challenge, requestId: request.id, expiresAt: request.expiresAt.toISOString() };
}

/**
 * `POST /auth/credentials/{id}/verify` of a passkey: the echoed Request-Id names an unused,
 * unexpired challenge of this credential (else 401), the assertion passes every WebAuthn check
 * over that challenge, and then, in one transaction, the challenge is consumed (once, even
 * under concurrent verifies), the counter moves forward and a session opens with its key sealed
 * to the challenge's clientPublicKey.
 */
export async function verifyPasskey(
  em: EntityManager,
  config: WalletAuthConfig,
  environment: Environment,
  credential: AuthCredential,
  requestId: string | undefined,
  assertion: PasskeyAssertion,
): Promise<SealedSessionView> {
  if (!requestId) throw new DomainError('REQUEST_ID_MISSING', 'A passkey verify echoes the requestId of its challenge in the Request-Id header');
  const pending = await em.findOne(SignedRequest, {
    id: requestId,
    platformId: credential.platformId,
    accountId: credential.accountId,
    operation: PASSKEY_SESSION_OPERATION,
  });
  if (!pending || pending.data?.authMethodId !== credential.id) throw DomainError.unauthorized('Request-Id names no passkey challenge of this credential');
  const now = new Date();
  if (pending.consumedAt) throw DomainError.unauthorized('This passkey challenge was already used; ask for a new one');
  if (pending.expiresAt <= now) throw DomainError.unauthorized('This passkey challenge expired; ask for a new one');
  const passkey = registeredPasskey(credential);
  const { counter } = await verifyPasskeyAssertion(config, assertion, { environment, challenge: pending.requestHash, passkey });
  return em.transactional(async (tx) => {
    const consumed = await tx.nativeUpdate(SignedRequest, { id: pending.id, consumedAt: null, expiresAt: { $gt: now } }, { consumedAt: now });
    if (consumed !== 1) throw DomainError.unauthorized('This passkey challenge was already used; ask for a new one');
    // Conditional on the counter read: of two assertions racing on one counter value, one wins.
    const moved = await tx.nativeUpdate(
      AuthCredential,
      { id: credential.id, revokedAt: null, passkeyCounter: credential.passkeyCounter ?? 0n },
      { passkeyCounter: BigInt(counter), updatedAt: now },
    );
    if (moved !== 1) throw DomainError.unauthorized('The passkey was used or revoked meanwhile; ask for a new challenge');
    return openSealedSession(tx, credential, String(pending.data?.clientPublicKey));
  });
}

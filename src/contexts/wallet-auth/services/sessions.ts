import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import { type AuthMethodType, SESSION_TTL_MS } from '../domain/auth-methods';
import { normalizeKeyHex } from '../domain/p256-keys';
import { AuthCredential, AuthSession } from '../entities';
import { runSignedOperation, type SignedCall, type SignedOutcome } from './signed-requests';
import { sessionView } from './views';

export type SessionView = ReturnType<typeof sessionView>;

const active = (now = new Date()) => ({ revokedAt: null, expiresAt: { $gt: now } });

/**
 * Opens a session of a credential with the client's key, in the caller's transaction. Another
 * live session of the wallet with the same key is closed: one key, one session, so a stamp
 * always names its session.
 */
export async function openSession(tx: EntityManager, credential: AuthCredential, publicKey: string): Promise<SessionView> {
  const now = new Date();
  const key = normalizeKeyHex(publicKey);
  await tx.nativeUpdate(AuthSession, { accountId: credential.accountId, publicKey: key, ...active(now) }, { revokedAt: now, updatedAt: now });
  const session = tx.create(AuthSession, {
    id: newId('Session'),
    platformId: credential.platformId,
    accountId: credential.accountId,
    credentialId: credential.id,
    publicKey: key,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    revokedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await tx.flush();
  return sessionView(session, credential);
}

/** The active sessions of one of the platform's wallets (never their keys); an unknown account has none. */
export async function listSessions(em: EntityManager, platformId: string, accountId: string): Promise<SessionView[]> {
  const sessions = await em.find(AuthSession, { platformId, accountId, ...active() }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const credentials = new Map((await em.find(AuthCredential, { id: { $in: sessions.map((s) => s.credentialId) } })).map((c) => [c.id, c]));
  return sessions.map((s) => sessionView(s, credentials.get(s.credentialId)!));
}

/** An active session of the platform: 404 for an unknown, expired, revoked or another platform's one. */
async function findActiveSession(em: EntityManager, platformId: string, id: string): Promise<AuthSession> {
  const session = await em.findOne(AuthSession, { id, platformId, ...active() });
  if (!session) throw DomainError.notFound('Session');
  return session;
}

/** Revokes a session (the 202 → signed retry), signed by any active session of the wallet, itself included (log-out). */
export async function revokeSession(
  em: EntityManager,
  call: Omit<SignedCall, 'accountId'>,
  sessionId: string,
): Promise<{ type: AuthMethodType; outcome: SignedOutcome<null> }> {
  const session = await findActiveSession(em, call.platformId, sessionId);
  const { type } = await em.findOneOrFail(AuthCredential, { id: session.credentialId });
  const outcome = await runSignedOperation(
    em,
    { ...call, accountId: session.accountId },
    {
      name: 'AUTH_SESSION_REVOKE',
      activityType: 'ACTIVITY_TYPE_DELETE_API_KEYS',
      prepare: () => Promise.resolve({ parameters: { sessionId } }),
      execute: async (tx) => {
        const now = new Date();
        const revoked = await tx.nativeUpdate(AuthSession, { id: sessionId, ...active(now) }, { revokedAt: now, updatedAt: now });
        if (revoked !== 1) throw DomainError.notFound('Session');
        return null;
      },
    },
  );
  return { type, outcome };
}

/**
 * Rotates a session's key (the 202 → signed retry, stamped by the session being refreshed): the
 * retry closes it and opens a new session of the same credential with `clientPublicKey`. The
 * session must be active on both legs (401 once it expired or was revoked; 404 when unknown).
 */
export async function refreshSession(
  em: EntityManager,
  call: Omit<SignedCall, 'accountId'>,
  sessionId: string,
  clientPublicKey: string,
): Promise<SignedOutcome<SessionView>> {
  const session = await em.findOne(AuthSession, { id: sessionId, platformId: call.platformId });
  if (!session) throw DomainError.notFound('Session');
  const inactive = () => DomainError.unauthorized('The session is no longer active: authenticate again with its credential');
  if (session.revokedAt || session.expiresAt <= new Date()) throw inactive();
  return runSignedOperation(
    em,
    { ...call, accountId: session.accountId },
    {
      name: 'AUTH_SESSION_REFRESH',
      activityType: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
      prepare: () => Promise.resolve({ parameters: { sessionId, targetPublicKey: normalizeKeyHex(clientPublicKey) } }),
      authorizeSigner: (signer) => {
        if (signer.id !== sessionId) throw new DomainError('WALLET_SIGNATURE_INVALID', 'A session is refreshed with a stamp of its own current key');
      },
      execute: async (tx) => {
        const now = new Date();
        const current = await tx.findOne(AuthSession, { id: sessionId, ...active(now) }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!current) throw inactive();
        current.revokedAt = now;
        current.updatedAt = now;
        await tx.flush();
        const credential = await tx.findOneOrFail(AuthCredential, { id: current.credentialId });
        return openSession(tx, credential, clientPublicKey);
      },
    },
  );
}

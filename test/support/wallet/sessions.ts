import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthCredential, AuthSession, SESSION_TTL_MS } from '../../../src/contexts/wallet-auth';
import { newId } from '../../../src/domain/ids';
import { newDeviceKey, type DeviceKey } from './keys';

/**
 * A signed-in device of a wallet's owner, for tests of what a session signs (payments, contact
 * changes): the row an OTP or passkey login leaves, written directly, with a fresh device key.
 * The login flows themselves are tested with the credential endpoints.
 */
export async function openTestSession(
  em: EntityManager,
  wallet: { platformId: string; accountId: string },
  options: { credentialId?: string; expiresAt?: Date } = {},
): Promise<{ key: DeviceKey; sessionId: string; credentialId: string }> {
  const now = new Date();
  const credentialId = options.credentialId ?? (await walletCredential(em, wallet));
  const key = newDeviceKey();
  const sessionId = newId('Session');
  em.create(AuthSession, {
    id: sessionId,
    platformId: wallet.platformId,
    accountId: wallet.accountId,
    credentialId,
    publicKey: key.publicKey,
    expiresAt: options.expiresAt ?? new Date(now.getTime() + SESSION_TTL_MS),
    revokedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return { key, sessionId, credentialId };
}

/** The wallet's first live credential (its EMAIL_OTP when the owner has an email), or a new EMAIL_OTP one. */
async function walletCredential(em: EntityManager, wallet: { platformId: string; accountId: string }): Promise<string> {
  const existing = await em.findOne(AuthCredential, { accountId: wallet.accountId, revokedAt: null }, { orderBy: { createdAt: 'asc' } });
  if (existing) return existing.id;
  const now = new Date();
  const id = newId('AuthMethod');
  em.create(AuthCredential, {
    id,
    platformId: wallet.platformId,
    accountId: wallet.accountId,
    type: 'EMAIL_OTP',
    nickname: 'owner@example.com',
    email: 'owner@example.com',
    challengeAttempts: 0,
    revokedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return id;
}

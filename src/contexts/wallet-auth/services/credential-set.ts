import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { credentialSetFingerprint, type OtpMethodType } from '../domain/auth-methods';
import { AuthCredential } from '../entities';

/** Changes of one wallet's credential set take turns (transaction-scoped lock), so checks of the set hold until commit. */
export async function lockCredentialSet(tx: EntityManager, accountId: string): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`credential-set:${accountId}`]);
}

/** The wallet's live credentials, oldest first. */
export function liveCredentials(em: EntityManager, platformId: string, accountId: string): Promise<AuthCredential[]> {
  return em.find(AuthCredential, { platformId, accountId, revokedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

export async function currentCredentialSet(em: EntityManager, platformId: string, accountId: string): Promise<string> {
  return credentialSetFingerprint((await liveCredentials(em, platformId, accountId)).map((c) => c.id));
}

/** 409 `<TYPE>_CREDENTIAL_SET_CHANGED` when the wallet's set is no longer the one recorded (at a challenge, or a first call). */
export async function assertCredentialSetUnchanged(
  em: EntityManager,
  platformId: string,
  accountId: string,
  recorded: string,
  type: OtpMethodType,
): Promise<void> {
  if ((await currentCredentialSet(em, platformId, accountId)) === recorded) return;
  throw new DomainError(
    type === 'EMAIL_OTP' ? 'EMAIL_OTP_CREDENTIAL_SET_CHANGED' : 'SMS_OTP_CREDENTIAL_SET_CHANGED',
    "The wallet's credentials changed after this was issued: start again",
  );
}

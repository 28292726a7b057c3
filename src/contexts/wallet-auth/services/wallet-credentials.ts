import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../../domain/ids';
import { AuthCredential } from '../entities';

/**
 * Every embedded wallet starts with an EMAIL_OTP credential tied to its owner's email (the
 * reference: wallets are "initialized with an EMAIL_OTP credential tied to the customer email").
 * Called by whoever opens wallets, in their transaction; a wallet whose owner has no email
 * starts without, and its first credential is then registered with POST /auth/credentials.
 * Idempotent.
 */
export async function openWalletEmailCredential(
  em: EntityManager,
  wallet: { platformId: string; accountId: string; email: string | null | undefined },
): Promise<void> {
  if (!wallet.email) return;
  if (await em.count(AuthCredential, { accountId: wallet.accountId, type: 'EMAIL_OTP', revokedAt: null })) return;
  const now = new Date();
  em.create(AuthCredential, {
    id: newId('AuthMethod'),
    platformId: wallet.platformId,
    accountId: wallet.accountId,
    type: 'EMAIL_OTP',
    nickname: wallet.email,
    email: wallet.email,
    challengeAttempts: 0,
    revokedAt: null,
    createdAt: now,
    updatedAt: now,
  });
}

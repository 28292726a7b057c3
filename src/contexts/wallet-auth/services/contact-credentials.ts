import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { InternalAccount } from '../../ledger';
import type { OtpMethodType } from '../domain/auth-methods';
import { AuthCredential, AuthSession } from '../entities';

/**
 * The live OTP credentials of a customer's embedded wallets ("tied" to the customer's email and
 * phone: codes go there), oldest first. `lock`: their rows are locked until the transaction ends,
 * so that the set cannot change under a contact change.
 */
export async function tiedOtpCredentials(
  em: EntityManager,
  platformId: string,
  customerId: string,
  options: { type?: OtpMethodType; lock?: boolean } = {},
): Promise<AuthCredential[]> {
  const wallets = await em.find(InternalAccount, { platformId, customerId, type: 'EMBEDDED_WALLET' }, { fields: ['id'] });
  if (wallets.length === 0) return [];
  return em.find(
    AuthCredential,
    { platformId, accountId: { $in: wallets.map((w) => w.id) }, type: options.type ?? { $in: ['EMAIL_OTP', 'SMS_OTP'] }, revokedAt: null },
    { orderBy: { createdAt: 'asc', id: 'asc' }, ...(options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}) },
  );
}

/**
 * A new email (phone) may not be one another live EMAIL_OTP (SMS_OTP) credential of the platform
 * already uses, on this or another wallet (409 EMAIL_OTP_EMAIL_ALREADY_EXISTS /
 * SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS). Emails compare case-insensitively.
 */
export async function assertOtpContactFree(em: EntityManager, platformId: string, type: OtpMethodType, value: string): Promise<void> {
  if (type === 'EMAIL_OTP') {
    if (await em.count(AuthCredential, { platformId, type, email: { $ilike: value.replace(/[\\%_]/g, (c) => `\\${c}`) }, revokedAt: null })) {
      throw new DomainError('EMAIL_OTP_EMAIL_ALREADY_EXISTS', 'This email address is already the address of an EMAIL_OTP credential');
    }
  } else if (await em.count(AuthCredential, { platformId, type, phoneNumber: value, revokedAt: null })) {
    throw new DomainError('SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS', 'This phone number is already the number of an SMS_OTP credential');
  }
}

/**
 * Someone must be able to sign for the wallets: a credential of one of them has been verified
 * (a session was opened) and a session is still active. Never verified: 400
 * AUTH_CREDENTIAL_VERIFICATION_REQUIRED; every session ended: 400 AUTH_CREDENTIAL_VERIFICATION_EXPIRED.
 * Checked before a challenge is issued that nobody could sign.
 */
export async function assertWalletVerified(em: EntityManager, platformId: string, accountIds: string[]): Promise<void> {
  const sessions = { platformId, accountId: { $in: accountIds } };
  if ((await em.count(AuthSession, sessions)) === 0) {
    throw new DomainError(
      'AUTH_CREDENTIAL_VERIFICATION_REQUIRED',
      "No credential of the customer's embedded wallet has been verified: verify one (POST /auth/credentials/{id}/challenge, then /verify) so that its session can sign the change",
    );
  }
  if ((await em.count(AuthSession, { ...sessions, revokedAt: null, expiresAt: { $gt: new Date() } })) === 0) {
    throw new DomainError(
      'AUTH_CREDENTIAL_VERIFICATION_EXPIRED',
      "Every session of the customer's embedded wallet has ended: verify a credential again so that a session can sign the change",
    );
  }
}

/** Points OTP credentials at the new email (phone): where codes go, and the nickname that shows it. Flushed by the caller's transaction. */
export function retargetOtpCredentials(credentials: AuthCredential[], value: string): void {
  const now = new Date();
  for (const credential of credentials) {
    if (credential.type === 'EMAIL_OTP') credential.email = value;
    else credential.phoneNumber = value;
    credential.nickname = value;
    credential.updatedAt = now;
  }
}

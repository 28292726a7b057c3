import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import { logger } from '../../../logger';
import type { OtpMethodType } from '../domain/auth-methods';
import { AuthCredential, AuthSession } from '../entities';
import { assertCredentialSetUnchanged, currentCredentialSet, liveCredentials, lockCredentialSet } from './credential-set';
import { issueOtpChallenge, type OtpDelivery } from './otp-challenges';
import { walletOwnerContacts } from './owner-contacts';
import { runSignedOperation, type SignedCall, type SignedOutcome } from './signed-requests';
import { credentialView } from './views';
import { requireWallet } from './wallets';

const CONTACT: Record<OtpMethodType, { field: 'email' | 'phoneNumber'; noun: string; activity: string }> = {
  EMAIL_OTP: { field: 'email', noun: 'email address', activity: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL' },
  SMS_OTP: { field: 'phoneNumber', noun: 'phone number', activity: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER' },
};

const alreadyExists = (type: OtpMethodType) =>
  new DomainError(`${type}_CREDENTIAL_ALREADY_EXISTS`, `The wallet already has an ${type} credential (one per internal account)`);

/** A live credential of the platform: 404 for an unknown, revoked or another platform's one. */
export async function findCredential(em: EntityManager, platformId: string, id: string): Promise<AuthCredential> {
  const credential = await em.findOne(AuthCredential, { id, platformId, revokedAt: null });
  if (!credential) throw DomainError.notFound('AuthMethod');
  return credential;
}

/** The live credentials of one of the platform's wallets; an unknown account has none. */
export async function listCredentials(em: EntityManager, platformId: string, accountId: string) {
  return (await liveCredentials(em, platformId, accountId)).map(credentialView);
}

/**
 * Registers an EMAIL_OTP or SMS_OTP credential on a wallet, to the owner's email or phone on
 * file (400 MISSING_MANDATORY_USER_INFO without one), one of each type per wallet. The wallet's
 * first credential is created at once (201, with a challenge: its code is sent); any further one
 * must be signed by a session of the wallet (the 202 → signed retry, whose 201 carries the new
 * credential's first challenge too), and its retry is refused with `<TYPE>_CREDENTIAL_SET_CHANGED`
 * when the wallet's credentials changed in between.
 */
export async function createOtpCredential(
  em: EntityManager,
  call: SignedCall,
  type: OtpMethodType,
  delivery: OtpDelivery,
): Promise<SignedOutcome<ReturnType<typeof credentialView> & { otpEncryptionTargetBundle?: string }>> {
  const wallet = await requireWallet(em, call.platformId, call.accountId);
  const { field, noun, activity } = CONTACT[type];
  const contacts = wallet.customerId ? await walletOwnerContacts(em, call.platformId, wallet.customerId) : null;
  const contact = contacts?.[field];
  if (!contact) {
    throw new DomainError('MISSING_MANDATORY_USER_INFO', `The wallet's owner has no ${noun} for an ${type} credential`, {
      errors: [{ field: `customer.${field}`, constraint: 'required', message: `add the ${noun} with PATCH /customers/{customerId} first` }],
    });
  }
  const create = async (tx: EntityManager) => {
    const now = new Date();
    const credential = tx.create(AuthCredential, {
      id: newId('AuthMethod'),
      platformId: call.platformId,
      accountId: call.accountId,
      type,
      nickname: contact,
      email: type === 'EMAIL_OTP' ? contact : null,
      phoneNumber: type === 'SMS_OTP' ? contact : null,
      challengeAttempts: 0,
      revokedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    return credential;
  };
  const unique = async (tx: EntityManager) => {
    if (await tx.count(AuthCredential, { accountId: call.accountId, type, revokedAt: null })) throw alreadyExists(type);
  };
  try {
    const first = await em.transactional(async (tx) => {
      await lockCredentialSet(tx, call.accountId);
      await unique(tx);
      return (await liveCredentials(tx, call.platformId, call.accountId)).length === 0 ? create(tx) : null;
    });
    if (first) {
      // The wallet's only way in: its first code goes out at once (the 201 carries the target bundle).
      const challenge = await issueOtpChallenge(em, first, delivery);
      return { status: 'DONE', result: { ...credentialView(first), otpEncryptionTargetBundle: challenge.otpEncryptionTargetBundle } };
    }
    const added = await runSignedOperation(em, call, {
      name: 'AUTH_CREDENTIAL_CREATE',
      activityType: activity,
      conflictGroup: 'CREDENTIAL_SET',
      prepare: async (tx) => ({
        parameters: { type, [field]: contact },
        data: { credentialSet: await currentCredentialSet(tx, call.platformId, call.accountId) },
      }),
      execute: async (tx, { request }) => {
        await lockCredentialSet(tx, call.accountId);
        await unique(tx);
        await assertCredentialSetUnchanged(tx, call.platformId, call.accountId, String(request.data?.credentialSet), type);
        return create(tx);
      },
    });
    if (added.status === 'CHALLENGE') return added;
    // As the first credential's 201: the new credential's first code goes out, and the answer carries its target bundle.
    return { status: 'DONE', result: { ...credentialView(added.result), ...(await firstChallengeOf(em, added.result, delivery)) } };
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw alreadyExists(type);
    throw err;
  }
}

/**
 * The first OTP challenge of a credential added by a signed retry, once the credential is
 * committed. The credential stands whatever happens to its code: when none can be issued (no
 * sender configured on this server, or the sender failed) the answer simply lacks the bundle,
 * and `POST /auth/credentials/{id}/challenge` asks again (the reference's own fallback).
 */
async function firstChallengeOf(em: EntityManager, credential: AuthCredential, delivery: OtpDelivery): Promise<{ otpEncryptionTargetBundle?: string }> {
  if (delivery.environment !== 'SANDBOX' && !delivery.sender) return {};
  try {
    return await issueOtpChallenge(em, credential, delivery);
  } catch (err) {
    logger.warn({ credentialId: credential.id, error: err instanceof Error ? err.name : typeof err }, 'no first OTP challenge for an added credential');
    return {};
  }
}

/**
 * Revokes a credential and every session it opened (the 202 → signed retry). It must be signed
 * by a session of a different credential of the wallet, and the wallet's last credential cannot
 * be revoked (400).
 */
export async function revokeCredential(em: EntityManager, call: Omit<SignedCall, 'accountId'>, credentialId: string): Promise<SignedOutcome<null>> {
  const credential = await findCredential(em, call.platformId, credentialId);
  const assertNotLast = async (tx: EntityManager) => {
    if ((await liveCredentials(tx, call.platformId, credential.accountId)).length <= 1) {
      throw DomainError.invalidInput(
        [{ field: 'id', constraint: 'lastCredential', message: 'the wallet would have no credential left: add another one first' }],
        "The wallet's last credential cannot be revoked",
      );
    }
  };
  await assertNotLast(em);
  return runSignedOperation(
    em,
    { ...call, accountId: credential.accountId },
    {
      name: 'AUTH_CREDENTIAL_REVOKE',
      activityType: 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS',
      conflictGroup: 'CREDENTIAL_SET',
      prepare: () => Promise.resolve({ parameters: { authenticatorId: credential.id } }),
      authorizeSigner: (session) => {
        if (session.credentialId === credential.id) {
          throw new DomainError('WALLET_SIGNATURE_INVALID', 'A credential is revoked with a session of another credential of the wallet, not its own');
        }
      },
      execute: async (tx) => {
        await lockCredentialSet(tx, credential.accountId);
        await assertNotLast(tx);
        const now = new Date();
        const revoked = await tx.nativeUpdate(
          AuthCredential,
          { id: credential.id, revokedAt: null },
          { revokedAt: now, updatedAt: now, challengeSealed: null },
        );
        if (revoked !== 1) throw DomainError.notFound('AuthMethod');
        await tx.nativeUpdate(AuthSession, { credentialId: credential.id, revokedAt: null }, { revokedAt: now, updatedAt: now });
        return null;
      },
    },
  );
}

import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import type { OtpMethodType } from '../domain/auth-methods';
import { AuthCredential } from '../entities';
import { findCredential } from './credentials';
import { checkOtpAttempt } from './otp-challenges';
import { openSession, type SessionView } from './sessions';
import { isSignedRetry, runSignedOperation, type SignedCall, type SignedOutcome } from './signed-requests';

/**
 * An OTP login (reference inventory §7.4): the first call checks the sealed code and answers a
 * payload bound to the client's public key from the bundle; the retry stamped with that key
 * (no session exists yet) opens the session, whose key it is.
 */
export async function verifyOtpCredential(
  em: EntityManager,
  call: Omit<SignedCall, 'accountId'>,
  input: { credentialId: string; type: OtpMethodType; encryptedOtpBundle: string; masterKey: Buffer },
): Promise<SignedOutcome<SessionView>> {
  const found = await findCredential(em, call.platformId, input.credentialId);
  // The code is judged on the first call only: the retry proves itself by the bound key's stamp.
  const attempt = isSignedRetry(call) ? null : await checkOtpAttempt(em, { platformId: call.platformId, ...input });
  return runSignedOperation(
    em,
    { ...call, accountId: found.accountId },
    {
      name: 'AUTH_CREDENTIAL_VERIFY',
      activityType: 'ACTIVITY_TYPE_OTP_LOGIN',
      prepare: () =>
        Promise.resolve({
          parameters: { authenticatorId: found.id, publicKey: attempt!.publicKey },
          data: { publicKey: attempt!.publicKey },
        }),
      boundKey: (request) => String(request.data?.publicKey),
      execute: async (tx, { request }) => {
        const credential = await tx.findOne(AuthCredential, { id: found.id, revokedAt: null }, { lockMode: LockMode.PESSIMISTIC_READ });
        if (!credential) throw DomainError.unauthorized('The credential was revoked');
        return openSession(tx, credential, String(request.data?.publicKey));
      },
    },
  );
}

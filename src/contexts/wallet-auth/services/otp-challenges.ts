import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomInt, randomUUID } from 'node:crypto';
import { DomainError } from '../../../domain/errors';
import { checkClientSecret, decrypt, encrypt, hashClientSecret } from '../../../security/secrets';
import { logger } from '../../../logger';
import type { Environment } from '../../platforms';
import { isOtpType, MAX_OTP_ATTEMPTS, OTP_CHALLENGE_TTL_MS, OTP_SEND_WINDOW, SANDBOX_OTP_CODE, type OtpMethodType } from '../domain/auth-methods';
import { sendRetryAfterSeconds, sendsInWindow } from '../../../domain/send-window';
import { AuthCredential } from '../entities';
import { assertCredentialSetUnchanged, currentCredentialSet } from './credential-set';
import { newOtpTargetKey, openOtpBundle, otpBundleParts, otpTargetBundle } from './otp-encryption';
import { requireWallet } from './wallets';

/** Delivers a one-time code by email or SMS (the API's contact code sender fits). The code is in the message only: never log it. */
export type OtpCodeSender = (message: {
  channel: 'email' | 'phone';
  to: string;
  code: string;
  customerId: string;
  platformId: string;
  expiresAt: Date;
}) => Promise<void>;

export interface OtpDelivery {
  masterKey: Buffer;
  environment: Environment;
  sender?: OtpCodeSender | undefined;
}

/** What the sealed challenge holds: the HPKE recipient's private key and the code's keyed hash. */
interface SealedChallenge {
  privateKey: string;
  nonce: string;
  codeHash: string;
}

const codeSecret = (credentialId: string, nonce: string, code: string) => `wallet-otp\u0000${credentialId}\u0000${nonce}\u0000${code}`;

function newOtpCode(environment: Environment): string {
  return environment === 'SANDBOX' ? SANDBOX_OTP_CODE : randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/**
 * Issues a new OTP challenge on an EMAIL_OTP or SMS_OTP credential, replacing any earlier one: a
 * fresh HPKE target key (its private half sealed with the master key), a new code (stored as a
 * keyed hash; the sandbox's is always 000000 and is not sent), the wallet's credential set at
 * this moment. Outside the sandbox the code goes to the credential's email or phone through the
 * server's sender, after it is stored; with no sender configured nothing is stored (501). At
 * most OTP_SEND_WINDOW codes per credential: beyond, 429 RATE_LIMITED with retryAfterSeconds.
 */
export async function issueOtpChallenge(em: EntityManager, credential: AuthCredential, delivery: OtpDelivery): Promise<{ otpEncryptionTargetBundle: string }> {
  if (!isOtpType(credential.type)) throw new DomainError('INVALID_INPUT', `${credential.type} credentials have no OTP challenge`);
  if (delivery.environment !== 'SANDBOX' && !delivery.sender) {
    throw new DomainError('NOT_IMPLEMENTED', `No ${credential.type === 'EMAIL_OTP' ? 'email' : 'SMS'} delivery is configured on this server for wallet codes`, {
      delivery: 'NOT_CONFIGURED',
    });
  }
  const code = newOtpCode(delivery.environment);
  const target = newOtpTargetKey();
  const nonce = randomUUID();
  const sealed: SealedChallenge = {
    privateKey: target.privateKey,
    nonce,
    codeHash: hashClientSecret(delivery.masterKey, codeSecret(credential.id, nonce, code)),
  };
  const now = new Date();
  const expiresAt = new Date(now.getTime() + OTP_CHALLENGE_TTL_MS);
  await em.transactional(async (tx) => {
    const locked = await tx.findOne(AuthCredential, { id: credential.id, revokedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!locked) throw DomainError.notFound('AuthMethod');
    const sends = (locked.challengeSends ?? []).map((at) => new Date(at));
    const retryAfterSeconds = sendRetryAfterSeconds(sends, now, OTP_SEND_WINDOW);
    if (retryAfterSeconds > 0) {
      throw new DomainError(
        'RATE_LIMITED',
        `Too many one-time codes for this credential (${OTP_SEND_WINDOW.max} per 15 minutes); retry after ${retryAfterSeconds} s`,
        {
          retryAfterSeconds,
        },
      );
    }
    locked.challengeSends = [...sendsInWindow(sends, now, OTP_SEND_WINDOW), now].map((at) => at.toISOString());
    locked.challengeSealed = encrypt(delivery.masterKey, JSON.stringify(sealed));
    locked.challengeExpiresAt = expiresAt;
    locked.challengeAttempts = 0;
    locked.challengeCredentialSet = await currentCredentialSet(tx, credential.platformId, credential.accountId);
    locked.updatedAt = now;
  });
  if (delivery.environment !== 'SANDBOX') {
    const wallet = await requireWallet(em, credential.platformId, credential.accountId);
    try {
      await delivery.sender!({
        channel: credential.type === 'EMAIL_OTP' ? 'email' : 'phone',
        to: (credential.type === 'EMAIL_OTP' ? credential.email : credential.phoneNumber) ?? credential.nickname,
        code,
        customerId: wallet.customerId ?? '',
        platformId: credential.platformId,
        expiresAt,
      });
    } catch (err) {
      logger.error({ credentialId: credential.id, error: err instanceof Error ? err.name : typeof err }, 'wallet OTP delivery failed');
      await em.nativeUpdate(AuthCredential, { id: credential.id }, { challengeSealed: null, challengeExpiresAt: null });
      throw DomainError.internal('The one-time code could not be delivered; request a new one');
    }
  }
  return { otpEncryptionTargetBundle: otpTargetBundle(delivery.masterKey, target.targetPublic) };
}

type Verdict = { ok: true; publicKey: string } | { ok: false; error: DomainError };

/**
 * The first leg of an OTP login: opens the client's `encryptedOtpBundle` with the outstanding
 * challenge's key and checks its code. A right code uses the challenge up and returns the
 * client's public key (the key the signed retry must be stamped with, and the session's key).
 * A wrong one is counted (the count is kept although the call fails; the fifth burns the
 * challenge) and is 401 UNAUTHORIZED "Invalid OTP code"; a bundle that is not one at all is 400
 * INVALID_INPUT and counts nothing. No live challenge: 401; the wallet's
 * credentials changed since the challenge: 409 `<TYPE>_CREDENTIAL_SET_CHANGED`.
 */
export async function checkOtpAttempt(
  em: EntityManager,
  input: { platformId: string; credentialId: string; type: OtpMethodType; encryptedOtpBundle: string; masterKey: Buffer },
): Promise<{ credential: AuthCredential; publicKey: string }> {
  // Malformed input is the client's to fix, and no attempt at a code: 400, nothing counted.
  if (!otpBundleParts(input.encryptedOtpBundle)) {
    throw DomainError.invalidInput(
      [
        {
          field: 'encryptedOtpBundle',
          constraint: 'format',
          message: 'must be the JSON {"encappedPublic": hex of an uncompressed P-256 key, "ciphertext": hex} that sealing to otpEncryptionTargetBundle gives',
        },
      ],
      'encryptedOtpBundle is not an HPKE-sealed OTP bundle',
    );
  }
  const { verdict, credential } = await em.transactional(async (tx) => {
    const credential = await tx.findOne(
      AuthCredential,
      { id: input.credentialId, platformId: input.platformId, revokedAt: null },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!credential) throw DomainError.notFound('AuthMethod');
    if (credential.type !== input.type) {
      throw DomainError.invalidInput([{ field: 'type', constraint: 'enum', message: `must be ${credential.type}, the type of credential ${credential.id}` }]);
    }
    const now = new Date();
    if (!credential.challengeSealed || !credential.challengeExpiresAt || credential.challengeExpiresAt <= now) {
      throw DomainError.unauthorized(
        'No one-time code is outstanding for this credential (or it expired): request one with POST /auth/credentials/{id}/challenge',
      );
    }
    await assertCredentialSetUnchanged(tx, credential.platformId, credential.accountId, credential.challengeCredentialSet ?? '', input.type);
    const sealed = JSON.parse(decrypt(input.masterKey, credential.challengeSealed)) as SealedChallenge;
    const attempt = await openOtpBundle(sealed.privateKey, input.encryptedOtpBundle);
    const matches = !!attempt && (await checkClientSecret(input.masterKey, codeSecret(credential.id, sealed.nonce, attempt.otpCode), sealed.codeHash)).matches;
    let verdict: Verdict;
    if (attempt && matches) {
      credential.challengeSealed = null;
      credential.challengeExpiresAt = null;
      verdict = { ok: true, publicKey: attempt.publicKey };
    } else {
      credential.challengeAttempts += 1;
      if (credential.challengeAttempts >= MAX_OTP_ATTEMPTS) {
        credential.challengeSealed = null;
        credential.challengeExpiresAt = null;
      }
      verdict = {
        ok: false,
        error: DomainError.unauthorized(
          attempt
            ? 'Invalid OTP code'
            : 'encryptedOtpBundle could not be opened with the key of the outstanding challenge: encrypt to its otpEncryptionTargetBundle',
        ),
      };
    }
    credential.updatedAt = now;
    await tx.flush();
    return { verdict, credential };
  });
  if (!verdict.ok) throw verdict.error;
  return { credential, publicKey: verdict.publicKey };
}

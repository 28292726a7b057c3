import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../../platforms';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import { decrypt, encrypt } from '../../../security/secrets';
import type { EnrollableFactor, ScaFactorType } from '../domain/factors';
import { SANDBOX_SCA_CODE, SCA_CODE_TTL_MS } from '../domain/one-time-codes';
import { hashRecoveryCode, newRecoveryCodes } from '../domain/recovery-codes';
import { checkTotp, newTotpSecret, totpUri } from '../domain/totp';
import { ScaChallenge, ScaFactor } from '../entities';
import { registrationOptions, verifyRegistration } from './passkeys';
import { PasskeyCheckFailed } from '../../../security/webauthn';
import { platformRelyingParty } from './relying-party';
import { loadScaCustomer, verifiedPhoneOf } from './sca-customers';
import { requireScaSession } from './sessions';

export interface ScaFactorView {
  factor: ScaFactorType;
  credentialId?: string;
  name?: string;
}

interface Target {
  platformId: string;
  customerId: string;
}

function viewOf(factor: ScaFactor): ScaFactorView {
  return { factor: factor.type, ...(factor.credentialId ? { credentialId: factor.credentialId } : {}), ...(factor.name ? { name: factor.name } : {}) };
}

/** The customer's factors: SMS_OTP while the phone is verified, then the active TOTP and passkey. */
export async function listScaFactors(em: EntityManager, target: Target): Promise<ScaFactorView[]> {
  const { customer } = await loadScaCustomer(em, target.platformId, target.customerId);
  const enrolled = await em.find(ScaFactor, { platformId: target.platformId, customerId: customer.id, status: 'ACTIVE' }, { orderBy: { activatedAt: 'asc' } });
  return [...(verifiedPhoneOf(customer) ? [{ factor: 'SMS_OTP' as const }] : []), ...enrolled.map(viewOf)];
}

export type EnrollmentStart =
  | { type: 'TOTP'; secret: string; secretBase32Encoded: string; totpUri: string }
  | { type: 'PASSKEY'; options: Record<string, unknown>; allowedOrigins: string[]; relyingPartyId: string };

/**
 * Starts enrolling a factor; the customer must be logged in (an SCA session), so that only the
 * customer, proven by a factor already held, adds one. One of each type: 409
 * PASSKEY_ALREADY_ENROLLED for a second passkey, 409 CONFLICT for a second authenticator app (a
 * lost one is replaced through the reset flow). A new start replaces an unconfirmed one.
 */
export async function startEnrollment(em: EntityManager, target: Target & { type: EnrollableFactor; masterKey: Buffer }): Promise<EnrollmentStart> {
  return em.transactional(async (tx) => {
    const { customer, platform } = await loadScaCustomer(tx, target.platformId, target.customerId, { lock: true });
    await requireScaSession(tx, target);
    const now = new Date();
    const active = await tx.findOne(ScaFactor, { platformId: target.platformId, customerId: customer.id, type: target.type, status: 'ACTIVE' });
    if (active && target.type === 'PASSKEY') {
      throw new DomainError('PASSKEY_ALREADY_ENROLLED', 'The customer already has a passkey; delete it with DELETE /sca/factors/{credentialId} first');
    }
    if (active)
      throw new DomainError('CONFLICT', 'The customer already has an authenticator app (TOTP); a lost one is replaced through POST /sca/factors/reset');
    const rp = platformRelyingParty(platform);
    if (target.type === 'TOTP') {
      await tx.nativeDelete(ScaFactor, { platformId: target.platformId, customerId: customer.id, type: 'TOTP', status: 'PENDING' });
      const secret = newTotpSecret();
      tx.create(ScaFactor, {
        id: newId('ScaFactor'),
        platformId: target.platformId,
        customerId: customer.id,
        type: 'TOTP',
        status: 'PENDING',
        credentialId: null,
        name: null,
        sealedTotpSecret: encrypt(target.masterKey, secret),
        totpLastUsedStep: null,
        recoveryCodeHashes: null,
        passkeyPublicKey: null,
        passkeyCounter: null,
        passkeyTransports: null,
        activatedAt: null,
        createdAt: now,
        updatedAt: now,
      });
      await tx.flush();
      const label = customer.email ?? customer.platformCustomerId;
      return { type: 'TOTP', secret, secretBase32Encoded: secret, totpUri: totpUri(secret, platform.name, label) };
    }
    const options = await registrationOptions(rp, { id: customer.id, name: customer.email ?? customer.platformCustomerId }, []);
    // One registration ceremony at a time: a new start withdraws the previous challenge.
    await tx.nativeDelete(ScaChallenge, { platformId: target.platformId, customerId: customer.id, purpose: 'ENROLL_PASSKEY' });
    tx.create(ScaChallenge, {
      id: newId('ScaChallenge'),
      platformId: target.platformId,
      customerId: customer.id,
      purpose: 'ENROLL_PASSKEY',
      factor: 'PASSKEY',
      binding: null,
      codeHash: null,
      destination: null,
      webauthnChallenge: options.challenge,
      attempts: 0,
      expiresAt: new Date(now.getTime() + SCA_CODE_TTL_MS),
      consumedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    return { type: 'PASSKEY', options: options as unknown as Record<string, unknown>, allowedOrigins: rp.origins, relyingPartyId: rp.rpId };
  });
}

/** Compares secrets in constant time (digests first, so that lengths do not matter). */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

function proofRefused(field: string, constraint: string, message: string, reason = 'The enrolment proof is not correct'): DomainError {
  return DomainError.invalidInput([{ field, constraint, message }], reason);
}

export type EnrollmentResult = { type: 'TOTP'; recoveryCodes: string[] } | { type: 'PASSKEY'; factor: ScaFactorView };

/**
 * Confirms the TOTP enrolment with the secret it returned and a current code (sandbox: also
 * SANDBOX_SCA_CODE); answers the recovery codes once (stored as keyed hashes). Confirms a
 * passkey with its attestation, checked against the pending registration challenge.
 */
export async function confirmTotpEnrollment(
  em: EntityManager,
  target: Target & { secret: string; code: string; environment: Environment; masterKey: Buffer },
): Promise<EnrollmentResult> {
  return em.transactional(async (tx) => {
    const { customer } = await loadScaCustomer(tx, target.platformId, target.customerId, { lock: true });
    await requireScaSession(tx, target);
    const pending = await tx.findOne(ScaFactor, { platformId: target.platformId, customerId: customer.id, type: 'TOTP', status: 'PENDING' });
    const secret = pending?.sealedTotpSecret ? decrypt(target.masterKey, pending.sealedTotpSecret) : null;
    if (!pending || !secret || !sameSecret(secret, target.secret)) {
      throw proofRefused(
        'secret',
        'not_requested',
        'no TOTP enrolment with this secret is pending; start one with POST /sca/factors',
        'No such TOTP enrolment is pending',
      );
    }
    const now = new Date();
    const check = target.environment === 'SANDBOX' && target.code === SANDBOX_SCA_CODE ? null : checkTotp(secret, target.code, null, now);
    if (check && !check.valid) throw proofRefused('code', 'invalid', 'the code is not the current code of the authenticator app');
    const recoveryCodes = newRecoveryCodes();
    Object.assign(pending, {
      status: 'ACTIVE',
      totpLastUsedStep: check?.valid ? check.timeStep : null,
      recoveryCodeHashes: recoveryCodes.map((code) => hashRecoveryCode(target.masterKey, pending.id, code)),
      activatedAt: now,
      updatedAt: now,
    });
    await tx.flush();
    return { type: 'TOTP', recoveryCodes };
  });
}

export async function confirmPasskeyEnrollment(em: EntityManager, target: Target & { origin: string; credential: unknown }): Promise<EnrollmentResult> {
  return em.transactional(async (tx) => {
    const { customer, platform } = await loadScaCustomer(tx, target.platformId, target.customerId, { lock: true });
    await requireScaSession(tx, target);
    const now = new Date();
    const challenge = await tx.findOne(ScaChallenge, { platformId: target.platformId, customerId: customer.id, purpose: 'ENROLL_PASSKEY', consumedAt: null });
    if (!challenge?.webauthnChallenge || challenge.expiresAt.getTime() <= now.getTime()) {
      throw proofRefused(
        'credential',
        'not_requested',
        'no passkey enrolment is pending (or it expired); start one with POST /sca/factors',
        'No passkey enrolment is pending',
      );
    }
    if (await tx.count(ScaFactor, { platformId: target.platformId, customerId: customer.id, type: 'PASSKEY', status: 'ACTIVE' })) {
      throw new DomainError('PASSKEY_ALREADY_ENROLLED', 'The customer already has a passkey; delete it with DELETE /sca/factors/{credentialId} first');
    }
    let registered;
    try {
      registered = await verifyRegistration(platformRelyingParty(platform), target.credential, target.origin, challenge.webauthnChallenge);
    } catch (err) {
      if (!(err instanceof PasskeyCheckFailed)) throw err;
      throw proofRefused(
        err.failure === 'origin' ? 'origin' : 'credential',
        'invalid',
        `the passkey registration did not verify (${err.failure.replace('_', ' ')})`,
      );
    }
    if (await tx.count(ScaFactor, { platformId: target.platformId, credentialId: registered.credentialId })) {
      throw proofRefused('credential', 'duplicate', 'this credential is already enrolled', 'The passkey is already enrolled');
    }
    challenge.consumedAt = now;
    challenge.updatedAt = now;
    const factor = tx.create(ScaFactor, {
      id: newId('ScaFactor'),
      platformId: target.platformId,
      customerId: customer.id,
      type: 'PASSKEY',
      status: 'ACTIVE',
      credentialId: registered.credentialId,
      name: 'Passkey',
      sealedTotpSecret: null,
      totpLastUsedStep: null,
      recoveryCodeHashes: null,
      passkeyPublicKey: registered.publicKey,
      passkeyCounter: BigInt(registered.counter),
      passkeyTransports: registered.transports,
      activatedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    return { type: 'PASSKEY', factor: viewOf(factor) };
  });
}

/** Removes the customer's passkey by its credential id (a logged-in customer only). 404 for anything else. */
export async function deleteScaFactor(em: EntityManager, target: Target & { credentialId: string }): Promise<void> {
  await em.transactional(async (tx) => {
    const { customer } = await loadScaCustomer(tx, target.platformId, target.customerId, { lock: true });
    const factor = await tx.findOne(ScaFactor, { platformId: target.platformId, customerId: customer.id, credentialId: target.credentialId, status: 'ACTIVE' });
    if (!factor) throw new DomainError('NOT_FOUND', 'SCA factor not found');
    await requireScaSession(tx, target);
    await tx.nativeDelete(ScaFactor, { id: factor.id });
  });
}

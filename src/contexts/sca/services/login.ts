import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platforms';
import { DomainError } from '../../../domain/errors';
import type { ScaFactorType } from '../domain/factors';
import { scaProofError } from '../domain/proof-verdicts';
import { ScaFactor } from '../entities';
import { issueScaChallenge, type ScaCodeSender } from './challenges';
import { verifyScaProof, type ScaProof } from './proofs';
import { loadScaCustomer } from './sca-customers';
import { openScaSession } from './sessions';

interface Target {
  platformId: string;
  customerId: string;
}

export interface ScaLoginStart {
  factor: ScaFactorType;
  challengeId?: string;
  expiresAt?: string;
  passkeyOptions?: Record<string, unknown>;
  allowedOrigins?: string[];
  relyingPartyId?: string;
}

/**
 * Starts an SCA login: SMS_OTP sends a code (challengeId, expiresAt), PASSKEY answers WebAuthn
 * assertion options (no challengeId: the assertion names its challenge), TOTP answers the factor
 * only (the app shows the code). A factor the customer does not hold is 400 on `factor`.
 */
export async function startScaLogin(
  em: EntityManager,
  target: Target & { factor: ScaFactorType; environment: Environment; masterKey: Buffer; sender?: ScaCodeSender },
): Promise<ScaLoginStart> {
  if (target.factor === 'TOTP') {
    const { customer } = await loadScaCustomer(em, target.platformId, target.customerId);
    const totp = await em.count(ScaFactor, { platformId: target.platformId, customerId: customer.id, type: 'TOTP', status: 'ACTIVE' });
    if (!totp) {
      throw DomainError.invalidInput(
        [{ field: 'factor', constraint: 'unavailable', message: 'the customer has no authenticator app (TOTP) enrolled' }],
        'The TOTP factor is not available for this customer',
      );
    }
    return { factor: 'TOTP' };
  }
  const issued = await issueScaChallenge(em, { ...target, factor: target.factor, purpose: 'LOGIN', ...(target.sender ? { sender: target.sender } : {}) });
  // Each factor shows only what it issues (the reference): a passkey's challenge travels inside its options and comes back in the assertion.
  if (issued.passkeyOptions) {
    return { factor: issued.factor, passkeyOptions: issued.passkeyOptions, allowedOrigins: issued.allowedOrigins!, relyingPartyId: issued.relyingPartyId! };
  }
  return { factor: issued.factor, challengeId: issued.id, expiresAt: issued.expiresAt.toISOString() };
}

/**
 * Completes an SCA login with the proof of the started factor; success opens an SCA session (in
 * the same transaction as the proof is used up). A wrong proof is 400 and counts toward the
 * lockout; a locked-out customer gets 423 ACCOUNT_LOCKED.
 */
export async function completeScaLogin(
  em: EntityManager,
  target: Target & {
    factor: ScaFactorType;
    proof: ScaProof;
    challengeId?: string | null;
    endUserIpAddress: string;
    environment: Environment;
    masterKey: Buffer;
  },
): Promise<{ status: 'SUCCESS'; sessionExpiresAt: string }> {
  const now = new Date();
  const verdict = await verifyScaProof(
    em,
    {
      platformId: target.platformId,
      customerId: target.customerId,
      factor: target.factor,
      proof: target.proof,
      challengeId: target.challengeId ?? null,
      purpose: 'LOGIN',
      environment: target.environment,
      masterKey: target.masterKey,
      now,
    },
    (tx) =>
      openScaSession(tx, {
        platformId: target.platformId,
        customerId: target.customerId,
        factor: target.factor,
        endUserIpAddress: target.endUserIpAddress,
        now,
      }),
  );
  if (!verdict.valid) throw scaProofError(verdict);
  return { status: 'SUCCESS', sessionExpiresAt: verdict.result.expiresAt.toISOString() };
}

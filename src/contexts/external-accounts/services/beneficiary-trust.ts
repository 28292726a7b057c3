import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { issueScaChallenge, loadScaCustomer, ScaChallenge, scaProofError, verifyScaProof, type ScaCodeSender, type ScaProof } from '../../sca';
import { DomainError } from '../../../domain/errors';
import { ExternalAccount } from '../entities';

/**
 * Trusted beneficiaries (SCA): a customer of an SCA region marks an external account trusted, or
 * no longer trusted, with a proof of its own (a challenge bound to that account, or a TOTP
 * code). Payments to a trusted account skip the per-transaction challenge; a trusted account
 * cannot be deleted. The flag is the external account's; the proof is the sca context's.
 */

export type TrustChange = 'TRUST' | 'UNTRUST';

export interface TrustDeps {
  masterKey: Buffer;
  sender?: ScaCodeSender;
}

const purposeOf = (change: TrustChange) => (change === 'TRUST' ? 'BENEFICIARY_TRUST' : 'BENEFICIARY_UNTRUST');
/** The challenge is bound to the account: a proof for one beneficiary never trusts another. */
const bindingOf = (account: ExternalAccount) => `beneficiary:${account.id}`;

/** A customer's external account of the caller's platform (404 otherwise, the platform's own accounts included: they have no customer to prove anything). */
async function customerAccount(em: EntityManager, platformId: string, id: string, lock = false): Promise<ExternalAccount> {
  const account = await em.findOne(ExternalAccount, { id, platformId, deletedAt: null }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!account?.customerId) throw DomainError.notFound('External account');
  return account;
}

/** Starts trusting or untrusting: 409 where SCA is not required or nothing would change; the SMS challenge to answer. */
export async function startTrustChange(em: EntityManager, platformId: string, accountId: string, change: TrustChange, deps: TrustDeps) {
  const account = await customerAccount(em, platformId, accountId);
  await loadScaCustomer(em, platformId, account.customerId!);
  if (account.trusted === (change === 'TRUST'))
    throw new DomainError('CONFLICT', change === 'TRUST' ? 'The beneficiary is trusted already' : 'The beneficiary is not trusted');
  const issued = await issueScaChallenge(em, {
    platformId,
    customerId: account.customerId!,
    purpose: purposeOf(change),
    factor: 'SMS_OTP',
    binding: bindingOf(account),
    context: `${change === 'TRUST' ? 'Trust' : 'Stop trusting'} beneficiary ${account.id}`,
    environment: account.environment,
    masterKey: deps.masterKey,
    ...(deps.sender ? { sender: deps.sender } : {}),
  });
  return {
    scaChallenge: {
      id: issued.id,
      expiresAt: issued.expiresAt.toISOString(),
      factor: issued.factor,
      availableFactors: ['SMS_OTP', 'TOTP'],
      purpose: purposeOf(change),
      passkeyAssertionOptions: null,
      passkeyAllowedOrigins: null,
    },
  };
}

/**
 * Confirms with the customer's proof: the challenge's code (the challengeId echoed), or a TOTP
 * code (no challenge). The flag changes in the verifier's transaction, so a wrong proof changes
 * nothing but the attempt count.
 */
export async function confirmTrustChange(
  em: EntityManager,
  platformId: string,
  accountId: string,
  change: TrustChange,
  proof: ScaProof & { challengeId?: string | null },
  deps: TrustDeps,
): Promise<{ trusted: boolean }> {
  const account = await customerAccount(em, platformId, accountId);
  await loadScaCustomer(em, platformId, account.customerId!);
  const challenge = proof.challengeId ? await em.findOne(ScaChallenge, { id: proof.challengeId, platformId, customerId: account.customerId! }) : null;
  const verdict = await verifyScaProof(
    em,
    {
      platformId,
      customerId: account.customerId!,
      factor: challenge ? challenge.factor : proof.challengeId ? 'SMS_OTP' : 'TOTP',
      proof,
      challengeId: proof.challengeId ?? null,
      purpose: purposeOf(change),
      binding: proof.challengeId ? bindingOf(account) : null,
      environment: account.environment,
      masterKey: deps.masterKey,
    },
    async (tx) => {
      const locked = await customerAccount(tx, platformId, accountId, true);
      locked.trusted = change === 'TRUST';
      locked.updatedAt = new Date();
      await tx.flush();
    },
  );
  if (!verdict.valid) throw scaProofError(verdict);
  return { trusted: change === 'TRUST' };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { DomainError } from '../../../domain/errors';
import { completeLiveness, openOwnershipChallenge, submitOwnershipSignature } from '../starters/external-account-verification';
import { ExternalAccount } from '../entities';
import { findExternalAccount, type Owner } from './external-accounts';
import { verificationInput } from './verification-input';

/** The engine the account's verification workflow runs on. */
export interface VerificationEngine {
  temporal: Client;
  taskQueue?: string;
}

/**
 * POST …/external-accounts/{id}/challenge: the account's verification workflow opens (or reopens)
 * its ownership challenge. LIVENESS needs a hosted provider, which only the sandbox stands in for.
 */
export async function openAccountOwnershipChallenge(
  em: EntityManager,
  engine: VerificationEngine,
  account: { platformId: string; externalAccountId: string; owner: Owner },
  request: { method: Parameters<typeof openOwnershipChallenge>[2]['method']; livenessLink: (accountId: string) => string },
) {
  const found = await findExternalAccount(em, account.platformId, account.externalAccountId, account.owner);
  if (request.method === 'LIVENESS' && found.environment !== 'SANDBOX') {
    throw new DomainError('NOT_IMPLEMENTED', 'No hosted liveness provider is connected to this installation; use WALLET_SIGNATURE');
  }
  return openOwnershipChallenge(
    engine.temporal,
    verificationInput(found),
    { method: request.method, livenessLink: request.livenessLink(found.id) },
    { taskQueue: engine.taskQueue },
  );
}

/** POST …/external-accounts/{id}/verify: the wallet's signature answers the WALLET_SIGNATURE challenge, in the account's workflow. */
export async function submitAccountOwnershipSignature(
  em: EntityManager,
  engine: VerificationEngine,
  account: { platformId: string; externalAccountId: string; owner: Owner },
  signature: Parameters<typeof submitOwnershipSignature>[2],
) {
  const found = await findExternalAccount(em, account.platformId, account.externalAccountId, account.owner);
  return submitOwnershipSignature(engine.temporal, verificationInput(found), signature, { taskQueue: engine.taskQueue });
}

/** POST /sandbox/external-accounts/{id}/liveness: the outstanding LIVENESS challenge finished as the user would (409 when none is open). */
export async function completeSandboxLiveness(em: EntityManager, engine: VerificationEngine, platformId: string, externalAccountId: string, passed: boolean) {
  const account = await em.findOne(ExternalAccount, { id: externalAccountId, platformId, deletedAt: null });
  if (!account) throw DomainError.notFound('External account');
  const challenge = account.ownershipChallenge;
  if (challenge?.method !== 'LIVENESS' || challenge.state !== 'OPEN')
    throw new DomainError('CONFLICT', 'No LIVENESS challenge is outstanding for this account');
  await completeLiveness(engine.temporal, verificationInput(account), { challengeId: challenge.challengeId, passed }, { taskQueue: engine.taskQueue });
}

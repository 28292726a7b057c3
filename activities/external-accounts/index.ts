import type { ActivityDeps } from '../deps';
import {
  completeBankValidation,
  expireOwnershipChallenge,
  openOwnershipChallenge,
  recordLivenessOutcome,
  resolveNameCheck,
  submitOwnershipSignature,
  type ChallengeRequest,
} from '../../src/contexts/external-accounts/services/verification';

/** Each step of an account's verification is one database transaction that also records its webhook. */
export function createActivities({ orm }: ActivityDeps) {
  return {
    async resolveNameCheck(input: { accountId: string }) {
      return resolveNameCheck(orm.em.fork(), input.accountId);
    },
    async completeBankValidation(input: { accountId: string }) {
      return completeBankValidation(orm.em.fork(), input.accountId);
    },
    async openOwnershipChallenge(input: ChallengeRequest) {
      return openOwnershipChallenge(orm.em.fork(), input);
    },
    async submitOwnershipSignature(input: { accountId: string; signature: string; signatureScheme?: 'bip137' | 'electrum'; attemptId: string }) {
      return submitOwnershipSignature(orm.em.fork(), input);
    },
    async recordLivenessOutcome(input: { accountId: string; challengeId: string; passed: boolean }) {
      return recordLivenessOutcome(orm.em.fork(), input);
    },
    async expireOwnershipChallenge(input: { accountId: string; challengeId: string }) {
      return expireOwnershipChallenge(orm.em.fork(), input);
    },
  };
}

/** What the external-account verification workflow may call (imported type-only). */
export type ExternalAccountActivities = ReturnType<typeof createActivities>;

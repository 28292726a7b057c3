import type { ActivityDeps } from '../deps';
import { authorizeQuoteChallenge } from '../../src/contexts/payments/services/quote-authorization';
import type { ScaProof } from '../../workflows/sca/definitions';

/**
 * The steps of a quote's SCA challenge workflow: each one database transaction. The proof is
 * judged by the sca context's verifier and the quote moved on by the payments context, together.
 */
export function createActivities({ orm, masterKey, scaChallengeTtlMs }: ActivityDeps) {
  return {
    async checkQuoteProof(input: { quoteId: string; challengeId: string; proof: ScaProof }) {
      return authorizeQuoteChallenge(orm.em.fork(), input, { masterKey, ...(scaChallengeTtlMs ? { ttlMs: scaChallengeTtlMs } : {}) });
    },
  };
}

/** What the SCA challenge workflow may call (imported type-only by workflows). */
export type ScaActivities = ReturnType<typeof createActivities>;

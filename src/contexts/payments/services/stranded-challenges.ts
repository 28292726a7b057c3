import { Quote } from '../entities';
import { SCA_CODE_TTL_MS, startScaChallenge } from '../../sca';
import { findOverdue, type StrandedStart } from '../../../temporal/start-stranded';
import { isPending } from '../domain/quote-challenge';
import { challengeWorkflowInput } from './quote-workflow-input';

/**
 * A quote's SCA challenge is recorded on the quote first and its workflow started after the
 * commit. If the process dies in between, nothing would end the payment when the challenge
 * lapses. These are quotes still waiting for a challenge issued longer ago than a challenge
 * lives (plus the grace period); its workflow is started (workflow id = challenge id: a running
 * one is joined) and, its time being up, fails the payment SCA_NOT_COMPLETED.
 */
export const strandedChallenges: StrandedStart<Quote> = {
  name: 'SCA challenges',
  find: async (em, scope) =>
    (
      await findOverdue(em, Quote, { status: 'PENDING_AUTHORIZATION', scaChallenge: { $ne: null } }, scope, {
        field: 'updatedAt',
        afterSeconds: SCA_CODE_TTL_MS / 1000,
      })
    ).filter((quote) => isPending(quote.scaChallenge)),
  idOf: (quote) => quote.scaChallenge!.id,
  start: (client, quote, { taskQueue }) => startScaChallenge(client, challengeWorkflowInput(quote, quote.scaChallenge!), { taskQueue }),
};

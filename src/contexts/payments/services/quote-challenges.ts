import type { EntityManager } from '@mikro-orm/postgresql';
import type { ScaProof } from '../../../../workflows/sca/definitions';
import { DomainError } from '../../../domain/errors';
import { domainErrorFrom } from '../../../temporal/failures';
import { decideHold } from '../starters/payment';
import { authorizeChallenge, requireScaSession, resendChallenge, SCA_AUTHORIZATION_GATE } from '../../sca';
import { isPending, type QuoteChallenge } from '../domain/quote-challenge';
import { Quote } from '../entities';
import { startChallengeWorkflow, type ExecutionDeps } from './quote-execute';
import { assertScaCustomer, findQuote } from './quote-requests';
import { challengeWorkflowInput } from './quote-workflow-input';

/** The quote's pending challenge, or 409 (none: authorized, lapsed, or the quote never needed one). */
function pendingChallenge(q: Quote): QuoteChallenge {
  if (q.status !== 'PENDING_AUTHORIZATION' || !isPending(q.scaChallenge)) throw new DomainError('CONFLICT', 'The quote has no pending challenge to authorize');
  return q.scaChallenge;
}

/**
 * POST /quotes/{id}/authorize: the customer's proof answers the quote's pending challenge, in its
 * workflow. A next challenge (a cross-currency real-time quote carries two) gets its workflow
 * started; the last one of a held execution releases the hold, which this waits for. Answered
 * with the quote as the authorization left it.
 */
export async function authorizeQuoteChallenge(em: EntityManager, deps: ExecutionDeps, platformId: string, quoteId: string, proof: ScaProof): Promise<Quote> {
  const q = await findQuote(em, platformId, quoteId);
  await assertScaCustomer(em, q);
  const challenge = pendingChallenge(q);
  // The customer authorizes from a logged-in app: no live SCA login, no authorization.
  await requireScaSession(em, { platformId: q.platformId, customerId: q.customerId! });
  const answer = await authorizeChallenge(deps.temporal, challengeWorkflowInput(q, challenge), proof, { taskQueue: deps.taskQueue });
  if (answer.next) {
    const now = await em.fork().findOneOrFail(Quote, { id: q.id });
    if (now.scaChallenge?.id === answer.next.challengeId) await startChallengeWorkflow(deps, now, now.scaChallenge);
  } else if (challenge.kind === 'HELD_EXECUTION') {
    // The challenge's workflow signals the release (durable); this waits for it, to answer the quote as it left it.
    try {
      await decideHold(deps.temporal, q.transactionId, { gate: SCA_AUTHORIZATION_GATE, decision: 'APPROVE', decisionId: challenge.id });
    } catch (err) {
      if (domainErrorFrom(err)?.code !== 'CONFLICT') throw err;
    }
  }
  return em.fork().findOneOrFail(Quote, { id: q.id });
}

/** POST /quotes/{id}/authorize/resend: the pending challenge's SMS code sent again (its workflow counts and refuses too many). */
export async function resendQuoteChallenge(em: EntityManager, deps: ExecutionDeps, platformId: string, quoteId: string): Promise<void> {
  const q = await findQuote(em, platformId, quoteId);
  await assertScaCustomer(em, q);
  await resendChallenge(deps.temporal, challengeWorkflowInput(q, pendingChallenge(q)), { taskQueue: deps.taskQueue });
}

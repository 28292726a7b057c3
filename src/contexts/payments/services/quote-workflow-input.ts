import type { QuoteInput } from '../../../../workflows/payments/definitions';
import type { ScaChallengeInput } from '../../../../workflows/sca/definitions';
import type { QuoteChallenge } from '../domain/quote-challenge';
import type { Quote } from '../entities';

/** The payment workflow's input for a quote: what is left of its lifetime is the workflow's timer. */
export function workflowInput(q: Quote): QuoteInput {
  return {
    quoteId: q.id,
    transactionId: q.transactionId,
    platformId: q.platformId,
    customerId: q.customerId ?? null,
    environment: q.environment,
    lifetimeSeconds: Math.max(0, Math.ceil((q.expiresAt.getTime() - Date.now()) / 1000)),
  };
}

/** The SCA challenge workflow's input for the quote's current challenge: what is left of its lifetime is the workflow's timer. */
export function challengeWorkflowInput(q: Quote, challenge: QuoteChallenge): ScaChallengeInput {
  return {
    challengeId: challenge.id,
    platformId: q.platformId,
    customerId: q.customerId!,
    quoteId: q.id,
    transactionId: q.transactionId,
    kind: challenge.kind,
    factor: challenge.factor,
    expiresInMs: Math.max(0, new Date(challenge.expiresAt).getTime() - Date.now()),
  };
}

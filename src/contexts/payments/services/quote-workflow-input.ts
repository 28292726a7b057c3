import type { QuoteInput } from '../../../../workflows/payments/definitions';
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

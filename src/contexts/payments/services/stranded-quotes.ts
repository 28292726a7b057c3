import { Quote } from '../entities';
import { findOverdue, type StrandedStart } from '../../../temporal/start-stranded';
import { startQuote } from '../starters/payment';
import { workflowInput } from './quote-workflow-input';

/**
 * A quote is recorded first and its workflow started after the commit. If the process dies in
 * between, nothing would expire it: it would stay PENDING (or PENDING_AUTHORIZATION: a real-time
 * quote waiting for its SCA authorization). These are such quotes past their
 * expiry by more than the grace period; their workflow is started with no time left, which
 * expires them (workflow id = transaction id: a running one is joined, never doubled).
 */
export const strandedQuotes: StrandedStart<Quote> = {
  name: 'quote expiries',
  find: (em, scope) => findOverdue(em, Quote, { status: { $in: ['PENDING', 'PENDING_AUTHORIZATION'] }, executedAt: null }, scope, { field: 'expiresAt' }),
  idOf: (quote) => quote.id,
  start: (client, quote, { taskQueue }) => startQuote(client, { ...workflowInput(quote), lifetimeSeconds: 0 }, { taskQueue }),
};

import { Quote } from '../entities';
import { ofScopedPlatform, type StrandedStart } from '../../../temporal/start-stranded';
import { startQuote } from '../../../temporal/starters/quote';

/**
 * A quote is recorded first and its workflow started after the commit. If the process dies in
 * between, nothing would expire it: it would stay PENDING. These are PENDING quotes past their
 * expiry by more than the grace period; their workflow is started with no time left, which
 * expires them (workflow id = transaction id: a running one is joined, never doubled).
 */
export const strandedQuotes: StrandedStart<Quote> = {
  name: 'quote expiries',
  find: (em, scope) =>
    em.find(
      Quote,
      { status: 'PENDING', executedAt: null, expiresAt: { $lt: scope.overdue }, ...ofScopedPlatform(scope) },
      { orderBy: { expiresAt: 'asc' }, limit: scope.limit },
    ),
  idOf: (quote) => quote.id,
  start: (client, quote, { taskQueue }) =>
    startQuote(
      client,
      {
        quoteId: quote.id,
        transactionId: quote.transactionId,
        platformId: quote.platformId,
        customerId: quote.customerId ?? null,
        environment: quote.environment,
        lifetimeSeconds: 0,
      },
      { taskQueue },
    ),
};

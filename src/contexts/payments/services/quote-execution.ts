import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { executeAnswer } from '../domain/execution-attempts';
import { Quote } from '../entities';

/**
 * One attempt of POST /quotes/{quoteId}/execute, run under the quote's lease: records the
 * attempt's key on the quote, has the quote executed (`execute`: the route asks the quote's
 * workflow) and answers with the quote as it is then, or refuses 409 CONFLICT when another
 * request executed it.
 */
export async function attemptQuoteExecution(
  em: EntityManager,
  input: { quoteId: string; attemptKey: string; execute: (quote: Quote) => Promise<{ repeat?: boolean }> },
): Promise<Quote> {
  const fresh = () => em.fork().findOneOrFail(Quote, { id: input.quoteId });
  const answer = (quote: Quote, repeat: boolean): Quote => {
    if (executeAnswer({ key: input.attemptKey, repeat }, quote.executionKey) === 'EXECUTED') return quote;
    throw new DomainError('CONFLICT', 'The quote has already been executed', { transactionId: quote.transactionId });
  };
  const quote = await fresh();
  if (quote.executedAt) return answer(quote, true);
  await em.fork().nativeUpdate(Quote, { id: quote.id, executedAt: null }, { executionKey: input.attemptKey });
  const { repeat } = await input.execute(quote);
  // Read again: the execution has moved it on.
  return answer(await fresh(), repeat === true);
}

import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { Quote } from '../entities';
import { logger } from '../../../logger';
import { startQuote } from '../../../temporal/starters/quote';

/**
 * A quote is recorded first and its workflow started after the commit. If the process dies in
 * between, nothing would expire it: it would stay PENDING. This finds PENDING quotes past their
 * expiry by more than a grace period and starts their workflow with no time left, which expires
 * them (workflow id = quote id: a running one is joined, never doubled).
 */
export async function expireStrandedQuotes(
  orm: MikroORM,
  client: Client,
  options: { graceMs?: number; taskQueue?: string; limit?: number } = {},
): Promise<string[]> {
  const cutoff = new Date(Date.now() - (options.graceMs ?? 60_000));
  const stranded = await orm.em
    .fork()
    .find(Quote, { status: 'PENDING', executedAt: null, expiresAt: { $lt: cutoff } }, { orderBy: { expiresAt: 'asc' }, limit: options.limit ?? 100 });
  const started: string[] = [];
  for (const q of stranded) {
    try {
      await startQuote(
        client,
        {
          quoteId: q.id,
          transactionId: q.transactionId,
          platformId: q.platformId,
          customerId: q.customerId ?? null,
          environment: q.environment,
          lifetimeSeconds: 0,
        },
        { taskQueue: options.taskQueue },
      );
      started.push(q.id);
    } catch (err) {
      logger.warn({ err, quoteId: q.id }, 'could not start a stranded quote');
    }
  }
  return started;
}

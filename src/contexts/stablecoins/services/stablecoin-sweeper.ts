import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { logger } from '../../../logger';
import { startStablecoinIssuance } from '../../../temporal/starters/stablecoin-issuance';
import { startStablecoinOperation } from '../../../temporal/starters/stablecoin-operation';
import { strandedOperations } from './operations';
import { issuancesUnderWay } from './stablecoins';
import { stablecoinTiming } from './stablecoin-timing';

/**
 * A stablecoin or an operation is recorded first and its workflow started after the commit; if
 * the process dies in between, nothing would move it on. Every minute this starts the workflow of
 * issuances still under way and of operations still CREATED a grace period after they were
 * recorded (workflow id = the business id: a running workflow is joined, never doubled).
 */
export async function startStrandedStablecoinWork(
  orm: MikroORM,
  client: Client,
  options: { graceMs?: number; taskQueue?: string; limit?: number } = {},
): Promise<string[]> {
  const cutoff = new Date(Date.now() - (options.graceMs ?? 60_000));
  const em = orm.em.fork();
  const limit = options.limit ?? 100;
  const timing = stablecoinTiming();
  const started: string[] = [];
  const attempt = async (id: string, start: () => Promise<void>) => {
    try {
      await start();
      started.push(id);
    } catch (err) {
      logger.warn({ err, id }, 'could not start stranded stablecoin work');
    }
  };
  for (const coin of await issuancesUnderWay(em, cutoff, limit)) await attempt(coin.id, () => startStablecoinIssuance(client, coin, timing, options));
  for (const op of await strandedOperations(em, cutoff, limit)) await attempt(op.id, () => startStablecoinOperation(client, op, timing, options));
  return started;
}

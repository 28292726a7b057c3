import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { logger } from '../../../logger';
import { startStablecoinIssuance } from '../starters/stablecoin-issuance';
import type { Caller } from '../../platforms';
import type { Stablecoin } from '../entities';
import { registerStablecoin, type RegisterRequest } from './stablecoins';
import { stablecoinTiming } from './stablecoin-timing';

/**
 * POST /stablecoins: the token registered (PENDING_REVIEW), then its issuance workflow started.
 * The stablecoin is recorded already when the start fails: the worker's sweep starts its issuance.
 */
export async function registerAndIssueStablecoin(
  em: EntityManager,
  engine: { temporal: Client; taskQueue?: string; masterKey: Buffer },
  caller: Caller,
  body: RegisterRequest,
  idempotencyKey: string,
): Promise<Stablecoin> {
  const coin = await registerStablecoin(em, engine.masterKey, caller, body, idempotencyKey);
  try {
    await startStablecoinIssuance(engine.temporal, coin, stablecoinTiming(), { taskQueue: engine.taskQueue });
  } catch (err) {
    // The stablecoin is recorded; the worker's sweep starts its issuance.
    logger.error({ err, stablecoinId: coin.id }, 'could not start the stablecoin issuance workflow');
  }
  return coin;
}

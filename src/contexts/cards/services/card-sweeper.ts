import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { logger } from '../../../logger';
import { startCardLifecycle, type CardTiming } from '../../../temporal/starters/card-lifecycle';
import { Card } from '../entities';
import { SANDBOX_ISSUER_SECONDS } from './cards';

/**
 * A card is recorded PROCESSING first and its workflow started after the commit. If the process
 * dies in between, the card would wait for an issuer nobody asked. This starts the workflow of
 * cards PROCESSING for longer than the issuer takes plus a grace period (workflow id = card id,
 * so a running one is joined, never doubled).
 */
export async function startStrandedCards(
  orm: MikroORM,
  client: Client,
  timing: CardTiming,
  options: { graceMs?: number; taskQueue?: string; limit?: number } = {},
): Promise<string[]> {
  const cutoff = new Date(Date.now() - (options.graceMs ?? 60_000) - SANDBOX_ISSUER_SECONDS * 1000);
  const stranded = await orm.em
    .fork()
    .find(Card, { state: 'PROCESSING', createdAt: { $lt: cutoff } }, { orderBy: { createdAt: 'asc' }, limit: options.limit ?? 100 });
  const started: string[] = [];
  for (const card of stranded) {
    try {
      await startCardLifecycle(client, { id: card.id, platformId: card.platformId, cardholderId: card.cardholderId, environment: card.environment }, timing, {
        taskQueue: options.taskQueue,
      });
      started.push(card.id);
    } catch (err) {
      logger.warn({ err, cardId: card.id }, 'could not start a stranded card');
    }
  }
  return started;
}

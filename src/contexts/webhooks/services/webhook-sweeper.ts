import type { MikroORM } from '@mikro-orm/postgresql';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { WebhookEvent } from '../entities';
import { logger } from '../../../logger';
import { startWebhookDelivery } from '../../../temporal/starters/webhook-delivery';

/**
 * Events are recorded in the database first and their delivery workflow is started after the
 * commit. If the process dies in between (or Temporal is briefly unreachable), the event would
 * wait forever. This finds such events — still PENDING, never attempted, older than a grace
 * period — and starts their delivery. Safe to run anywhere, any number of times: the workflow id
 * is the event id, a running delivery is reused, and a finished one is never started again.
 */
export async function startStrandedWebhookDeliveries(
  orm: MikroORM,
  client: Client,
  options: { graceMs?: number; taskQueue?: string; limit?: number; platformId?: string } = {},
): Promise<string[]> {
  const cutoff = new Date(Date.now() - (options.graceMs ?? 60_000));
  const stranded = await orm.em
    .fork()
    .find(
      WebhookEvent,
      { state: 'PENDING', attempts: 0, createdAt: { $lt: cutoff }, ...(options.platformId ? { platformId: options.platformId } : {}) },
      { orderBy: { createdAt: 'asc' }, limit: options.limit ?? 100 },
    );
  const started: string[] = [];
  for (const event of stranded) {
    try {
      await startWebhookDelivery(client, event, { taskQueue: options.taskQueue, reusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE });
      started.push(event.id);
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) continue; // delivered or given up already
      logger.warn({ err, eventId: event.id }, 'could not start a stranded webhook delivery');
    }
  }
  return started;
}

import type { SearchAttributePair } from '@temporalio/common';
import { log, ParentClosePolicy, proxyActivities, proxyLocalActivities, startChild, workflowInfo } from '@temporalio/workflow';
import type { WebhookActivities } from '../../activities/webhooks';
import { handOverDelaySeconds, isFinalOutcome } from '../../src/contexts/webhooks/domain/webhook-retry';
import { PlatformIdKey, WebhookEventTypeKey } from '../../src/temporal/search-attributes';
import { childTaskQueue } from '../../src/temporal/task-queues';
import { WEBHOOK_DELIVERY_WORKFLOW } from './definitions';
import { webhookDelivery } from './webhook-delivery';

// First attempts run in the workflow that recorded the events, in one activity with no retry of
// its own: whatever it does not deliver is handed over to a retrying workflow. As an ordinary
// activity it is scheduled by the same workflow task that answers the caller, so the answer never
// waits for a receiver; the local form is kept for runs that started with it.
const firstAttempts = { startToCloseTimeout: '1 minute', retry: { maximumAttempts: 1 } } as const;
const { deliverWebhooks } = proxyActivities<WebhookActivities>(firstAttempts);
const { deliverWebhooks: deliverWebhooksLocally } = proxyLocalActivities<WebhookActivities>(firstAttempts);

type Event = { eventId: string; type: string };

/**
 * Starts one delivery workflow per recorded event (workflow id = event id). They outlive the
 * calling workflow (ABANDON) and carry its search attributes, so support staff find the
 * deliveries next to the payment or verification that caused them.
 */
export async function announceEvents(platformId: string, events: Event[], attributes: SearchAttributePair[] = []): Promise<void> {
  for (const event of events) await handOver(platformId, event, attributes, { eventId: event.eventId });
}

/**
 * Delivers the recorded events from this workflow (one local activity for all of them) and
 * hands each event the receiver did not accept to a webhookDelivery workflow (id = event id),
 * which waits the first back-off interval and retries for days. On the success path this costs
 * one activity task and no workflow; the attempts are visible in this workflow's history, the
 * events' state in the database.
 */
export async function deliverEvents(
  platformId: string,
  events: Event[],
  attributes: SearchAttributePair[] = [],
  options: { local?: boolean } = {},
): Promise<void> {
  if (events.length === 0) return;
  let outcomes: Awaited<ReturnType<typeof deliverWebhooks>>;
  try {
    outcomes = await (options.local ? deliverWebhooksLocally : deliverWebhooks)({ eventIds: events.map((e) => e.eventId) });
  } catch (err) {
    // The attempt itself could not run (database unavailable): every event goes to a retrying workflow.
    log.warn('first webhook attempts failed; handing every event over', { error: err instanceof Error ? err.message : String(err) });
    return announceEvents(platformId, events, attributes);
  }
  for (const { eventId, outcome } of outcomes) {
    if (isFinalOutcome(outcome)) continue;
    const event = events.find((e) => e.eventId === eventId)!;
    // A first attempt the endpoint's breaker held back posted nothing: the retries start after the pause, none counted.
    const attemptsSoFar = outcome.kind === 'PAUSED' ? 0 : 1;
    await handOver(platformId, event, attributes, { eventId, attemptsSoFar, firstAttemptAfterSeconds: handOverDelaySeconds(outcome) });
  }
}

async function handOver(platformId: string, event: Event, attributes: SearchAttributePair[], args: Parameters<typeof webhookDelivery>[0]): Promise<void> {
  // On the webhooks queue, so that a backlog of retries never delays the calling context's queue.
  const taskQueue = childTaskQueue(WEBHOOK_DELIVERY_WORKFLOW, workflowInfo().taskQueue);
  await startChild(webhookDelivery, {
    workflowId: event.eventId,
    ...(taskQueue ? { taskQueue } : {}),
    args: [args],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    typedSearchAttributes: [{ key: PlatformIdKey, value: platformId }, ...attributes, { key: WebhookEventTypeKey, value: event.type }],
  });
}

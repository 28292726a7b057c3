import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../contexts/platforms/entities';
import type { InternalAccount } from '../../contexts/ledger/entities';
import { accountStatusEventId, recordOpenedAccountEvents } from '../../contexts/ledger/services/provisioning';
import { WebhookEvent } from '../../contexts/webhooks/entities';
import { logger } from '../../logger';
import type { webhookDelivery } from '../../../workflows/webhooks/webhook-delivery';
import { PlatformIdKey, WebhookEventTypeKey } from '../search-attributes';
import { joiningStart } from '../joining-start';

/**
 * Starts the delivery workflow of a recorded event (workflow id = event id, so a repeat attaches
 * to the running delivery instead of sending twice). For events raised outside a workflow.
 */
export async function startWebhookDelivery(
  client: Client,
  event: WebhookEvent,
  options: { taskQueue?: string; singleAttempt?: boolean; reusePolicy?: WorkflowIdReusePolicy } = {},
) {
  return client.workflow.start<typeof webhookDelivery>(
    'webhookDelivery',
    joiningStart({
      workflowType: 'webhookDelivery',
      workflowId: event.id,
      taskQueue: options.taskQueue,
      // Unless told otherwise, the server's default: a finished delivery may be started again.
      reuse: options.reusePolicy ?? WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      args: [{ eventId: event.id, ...(options.singleAttempt ? { singleAttempt: true } : {}) }],
      searchAttributes: [
        { key: PlatformIdKey, value: event.platformId },
        { key: WebhookEventTypeKey, value: event.type },
      ],
    }),
  );
}

export interface AnnounceContext {
  em: EntityManager;
  temporal: Client;
  taskQueue?: string;
  environment: Environment;
}

/**
 * For API callers, after the provisioning transaction committed: records the accounts'
 * STATUS_UPDATED events and starts their delivery. Accounts whose event is already recorded
 * were announced before and are skipped, so a repeat never sends twice. The request has
 * already succeeded, so a failure here is logged rather than thrown.
 */
export async function announceOpenedAccounts(ctx: AnnounceContext, accounts: InternalAccount[]): Promise<void> {
  if (accounts.length === 0) return;
  try {
    const known = new Set((await ctx.em.find(WebhookEvent, { id: { $in: accounts.map(accountStatusEventId) } })).map((e) => e.id));
    const events = await recordOpenedAccountEvents(
      ctx.em,
      ctx.environment,
      accounts.filter((a) => !known.has(accountStatusEventId(a))),
    );
    for (const event of events) await startWebhookDelivery(ctx.temporal, event, { taskQueue: ctx.taskQueue });
  } catch (err) {
    logger.error({ err, accountIds: accounts.map((a) => a.id) }, 'could not announce opened internal accounts');
  }
}

import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { SignatureOf } from '../../../temporal/workflow-kind';
import { WEBHOOK_DELIVERY_WORKFLOW } from '../../../../workflows/webhooks/definitions';
import type { WebhookEvent } from '../entities';
import { PlatformIdKey, WebhookEventTypeKey } from '../../../temporal/search-attributes';
import { joiningStart } from '../../../temporal/joining-start';

/**
 * Starts the delivery workflow of a recorded event (workflow id = event id, so a repeat attaches
 * to the running delivery instead of sending twice). For events raised outside a workflow.
 */
export async function startWebhookDelivery(
  client: Client,
  event: WebhookEvent,
  options: { taskQueue?: string; singleAttempt?: boolean; reusePolicy?: WorkflowIdReusePolicy } = {},
) {
  return client.workflow.start<SignatureOf<typeof WEBHOOK_DELIVERY_WORKFLOW>>(
    WEBHOOK_DELIVERY_WORKFLOW.type,
    joiningStart({
      workflow: WEBHOOK_DELIVERY_WORKFLOW,
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

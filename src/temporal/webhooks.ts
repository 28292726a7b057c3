import { WorkflowIdConflictPolicy, type Client, type WorkflowIdReusePolicy } from '@temporalio/client';
import type { WebhookEvent } from '../contexts/webhooks/entities/index';
import type { webhookDelivery } from '../../workflows/webhooks/webhook-delivery';
import { PlatformIdKey, WebhookEventTypeKey } from './search-attributes';
import { TASK_QUEUE } from './task-queue';

/**
 * Starts the delivery workflow of a recorded event (workflow id = event id, so a repeat attaches
 * to the running delivery instead of sending twice). For events raised outside a workflow.
 */
export async function startWebhookDelivery(client: Client, event: WebhookEvent, options: { taskQueue?: string; singleAttempt?: boolean; reusePolicy?: WorkflowIdReusePolicy } = {}) {
  return client.workflow.start<typeof webhookDelivery>('webhookDelivery', {
    workflowId: event.id,
    taskQueue: options.taskQueue ?? TASK_QUEUE,
    args: [{ eventId: event.id, ...(options.singleAttempt ? { singleAttempt: true } : {}) }],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    ...(options.reusePolicy ? { workflowIdReusePolicy: options.reusePolicy } : {}),
    typedSearchAttributes: [
      { key: PlatformIdKey, value: event.platformId },
      { key: WebhookEventTypeKey, value: event.type },
    ],
  });
}

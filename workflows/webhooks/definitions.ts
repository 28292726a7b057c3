import { defineQuery } from '@temporalio/workflow';
import type { DeliveryOutcome, WebhookRetryPolicy } from '../../src/contexts/webhooks/domain/webhook-retry';
import type { WorkflowKind } from '../../src/temporal/workflow-kind';

/** Input, result and query of the webhookDelivery workflow, shared with the code that starts it. */

export interface WebhookDeliveryInput {
  eventId: string;
  /** Single attempt, no retries: used by the synchronous test webhook. */
  singleAttempt?: boolean;
  policy?: WebhookRetryPolicy;
  /** Carried across continue-as-new so the horizon counts from the first attempt. */
  attemptsSoFar?: number;
  /**
   * Wait this long before the first attempt of this run: set when the workflow that recorded
   * the event already made the first attempt and hands the retries over.
   */
  firstAttemptAfterSeconds?: number;
  elapsedSeconds?: number;
}

export interface WebhookDeliveryResult {
  eventId: string;
  delivered: boolean;
  attempts: number;
  /** Back-off time spent between the first and the last attempt. */
  elapsedSeconds: number;
  lastOutcome: DeliveryOutcome;
}

export const webhookAttemptsQuery = defineQuery<number>('attempts');

/** The webhookDelivery workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). */
export const WEBHOOK_DELIVERY_WORKFLOW: WorkflowKind<'webhookDelivery', (input: WebhookDeliveryInput) => Promise<WebhookDeliveryResult>> = {
  type: 'webhookDelivery',
  taskQueue: 'webhooks',
  versioning: 'AUTO_UPGRADE',
};

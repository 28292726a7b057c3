import type { SearchAttributePair } from '@temporalio/common';
import { ParentClosePolicy, startChild } from '@temporalio/workflow';
import { PlatformIdKey, WebhookEventTypeKey } from '../../src/temporal/search-attributes';
import { webhookDelivery } from './webhook-delivery';

/**
 * Starts one delivery workflow per recorded event (workflow id = event id). They outlive the
 * calling workflow (ABANDON) and carry its search attributes, so support staff find the
 * deliveries next to the payment or verification that caused them.
 */
export async function announceEvents(platformId: string, events: { eventId: string; type: string }[], attributes: SearchAttributePair[] = []): Promise<void> {
  for (const { eventId, type } of events) {
    await startChild(webhookDelivery, {
      workflowId: eventId,
      args: [{ eventId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: [{ key: PlatformIdKey, value: platformId }, ...attributes, { key: WebhookEventTypeKey, value: type }],
    });
  }
}

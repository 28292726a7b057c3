import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/client';
import { WebhookEvent } from '../entities';
import { findOverdue, type StrandedStart } from '../../../temporal/start-stranded';
import { startWebhookDelivery } from '../starters/webhook-delivery';

/**
 * Events are recorded in the database first and their delivery workflow is started after the
 * commit. If the process dies in between (or Temporal is briefly unreachable), the event would
 * wait forever. These are such events — still PENDING, never attempted nor held back by their
 * endpoint's breaker, older than the grace period — and their delivery is started. The workflow id is the event id: a running delivery is
 * reused, and a finished one is never started again (its refusal means it is over).
 */
export const strandedDeliveries: StrandedStart<WebhookEvent> = {
  name: 'webhook deliveries',
  find: (em, scope) => findOverdue(em, WebhookEvent, { state: 'PENDING', attempts: 0, heldBackAt: null }, scope, { field: 'createdAt' }),
  idOf: (event) => event.id,
  start: async (client, event, { taskQueue }) => {
    await startWebhookDelivery(client, event, { taskQueue, reusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE });
  },
  isOverAlready: (err) => err instanceof WorkflowExecutionAlreadyStartedError, // delivered or given up already
};

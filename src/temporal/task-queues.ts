import type * as workflows from '../../workflows';

/**
 * The task queues, one per kind of work, so that a backlog on one (thousands of webhook retries, a
 * bulk import) never delays another's workflow tasks: a worker process polls the ones it is told to
 * (WORKER_TASK_QUEUES; src/temporal/task-queue.ts). Pure: workflow code imports it to start children
 * on their own queue.
 */
export const TASK_QUEUES = ['payments', 'onboarding', 'webhooks', 'bulk', 'cards', 'stablecoins'] as const;
export type TaskQueue = (typeof TASK_QUEUES)[number];

export type WorkflowType = keyof typeof workflows;

/** The one place that names each workflow type's queue: the starters and the workflows read it. */
export const WORKFLOW_TASK_QUEUES: { readonly [T in WorkflowType]: TaskQueue } = {
  // money movement
  quote: 'payments',
  payment: 'payments',
  outgoingPayment: 'payments',
  incomingPayment: 'payments',
  // customers, their verification, external accounts, invitations and SCA challenges
  customerVerification: 'onboarding',
  externalAccountVerification: 'onboarding',
  invitationLifecycle: 'onboarding',
  scaChallenge: 'onboarding',
  webhookDelivery: 'webhooks',
  bulkCustomerImport: 'bulk',
  cardLifecycle: 'cards',
  stablecoinIssuance: 'stablecoins',
  stablecoinOperation: 'stablecoins',
};

export function isTaskQueue(name: string): name is TaskQueue {
  return (TASK_QUEUES as readonly string[]).includes(name);
}

/**
 * The queue a workflow starts a child of `type` on, given its own queue: the child's queue when the
 * parent runs on one of TASK_QUEUES; otherwise (every workflow on one queue of its own: tests, the
 * bench) undefined, so that the child stays on its parent's queue, which the one worker polls.
 */
export function childTaskQueue(type: WorkflowType, parentTaskQueue: string): TaskQueue | undefined {
  return isTaskQueue(parentTaskQueue) ? WORKFLOW_TASK_QUEUES[type] : undefined;
}

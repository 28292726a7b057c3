/**
 * The task queues, one per kind of work, so that a backlog on one (thousands of webhook retries, a
 * bulk import) never delays another's workflow tasks: a worker process polls the ones it is told to
 * (WORKER_TASK_QUEUES; src/temporal/task-queue-settings.ts). Each workflow's contract names its queue
 * (its WorkflowKind, workflows/<context>/definitions.ts). Pure: workflow code imports it to start
 * children on their own queue.
 */
export const TASK_QUEUES = ['payments', 'onboarding', 'webhooks', 'bulk', 'cards', 'stablecoins'] as const;
export type TaskQueue = (typeof TASK_QUEUES)[number];

export function isTaskQueue(name: string): name is TaskQueue {
  return (TASK_QUEUES as readonly string[]).includes(name);
}

/**
 * The queue a workflow starts a child of that kind on, given its own queue: the child's queue when the
 * parent runs on one of TASK_QUEUES; otherwise (every workflow on one queue of its own: tests, the
 * bench) undefined, so that the child stays on its parent's queue, which the one worker polls.
 */
export function childTaskQueue(child: { readonly taskQueue: TaskQueue }, parentTaskQueue: string): TaskQueue | undefined {
  return isTaskQueue(parentTaskQueue) ? child.taskQueue : undefined;
}

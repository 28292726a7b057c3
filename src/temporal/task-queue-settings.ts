import { isTaskQueue, TASK_QUEUES } from './task-queues';
import type { WorkflowKind } from './workflow-kind';

/**
 * TEMPORAL_TASK_QUEUE: every workflow on that one queue instead of the queues per context (the e2e
 * test and the bench use it to keep their runs apart). Unset in production.
 */
export const SINGLE_TASK_QUEUE = singleTaskQueue(process.env);

export function singleTaskQueue(env: NodeJS.ProcessEnv): string | undefined {
  const name = env.TEMPORAL_TASK_QUEUE?.trim();
  if (!name) return undefined;
  // A context queue's name would send the children of its workflows to their own queues, which nobody polls.
  if (isTaskQueue(name)) throw new Error(`TEMPORAL_TASK_QUEUE must not be one of the context queues (${TASK_QUEUES.join(', ')}): unset it to use them`);
  return name;
}

/** The queue a starter starts a workflow of that kind on: the caller's one queue (tests), else TEMPORAL_TASK_QUEUE's, else its contract's. */
export function startTaskQueue(workflow: WorkflowKind, oneQueue?: string): string {
  return oneQueue ?? SINGLE_TASK_QUEUE ?? workflow.taskQueue;
}

/**
 * The queues a worker process polls: TEMPORAL_TASK_QUEUE's one queue if set; else WORKER_TASK_QUEUES, a
 * comma list of context queues (e.g. `payments,onboarding`); else all of them.
 */
export function workerTaskQueues(env: NodeJS.ProcessEnv): string[] {
  const single = singleTaskQueue(env);
  if (single) return [single];
  const list = env.WORKER_TASK_QUEUES?.trim();
  if (!list) return [...TASK_QUEUES];
  const names = [...new Set(list.split(',').map((name) => name.trim()))];
  const unknown = names.filter((name) => !isTaskQueue(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(`WORKER_TASK_QUEUES names unknown queues (${unknown.map((n) => JSON.stringify(n)).join(', ')}): choose among ${TASK_QUEUES.join(', ')}`);
  }
  return names;
}

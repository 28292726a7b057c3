import type { WorkerOptions } from '@temporalio/worker';
import { isTaskQueue } from '../src/temporal/task-queues';
import { PAYMENT_WORKFLOW } from '../workflows/payments/definitions';

/**
 * How many long polls each queue's Worker holds. A worker process runs one SDK Worker per queue (each with slots of
 * its own, so that a backlog on one queue never takes another's); with the SDK's fixed 10 workflow-task and 10
 * activity-task pollers each, six queues held 120 polls per process, 100 of them on queues idle most of the time.
 * The payments queue, whose workflow tasks a caller waits on, keeps the fixed pollers (as does the one queue of
 * TEMPORAL_TASK_QUEUE); every other queue scales its pollers with its backlog (the server's poll answers say
 * when), from a floor of two workflow-task pollers (normal and sticky) and one activity-task poller up to the
 * same maximum of 10: a webhook flood still gets all of them, on that queue's Worker only.
 */
export function pollerOptions(taskQueue: string): Pick<WorkerOptions, 'workflowTaskPollerBehavior' | 'activityTaskPollerBehavior'> {
  if (!isTaskQueue(taskQueue) || taskQueue === PAYMENT_WORKFLOW.taskQueue) return {};
  return {
    workflowTaskPollerBehavior: { type: 'autoscaling', minimum: 2, initial: 2, maximum: 10 },
    activityTaskPollerBehavior: { type: 'autoscaling', minimum: 1, initial: 1, maximum: 10 },
  };
}

import { WorkflowIdConflictPolicy, type WorkflowIdReusePolicy } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import { rethrowAsDomainError } from './failures';
import { startTaskQueue } from './task-queue-settings';
import { retryingUnprocessedUpdate } from './update-retry';
import type { WorkflowKind } from './workflow-kind';

/**
 * The start options of a business workflow whose id is the business id: a start while a run is
 * going joins it (never a second run). Each workflow's one starter states its kind (its contract's type name and task
 * queue), its id, its args, its search attributes and whether a finished run may be followed by a new one (`reuse`).
 */
export function joiningStart<Args extends unknown[]>(start: {
  workflow: WorkflowKind;
  workflowId: string;
  args: [...Args];
  searchAttributes: SearchAttributePair[];
  reuse: WorkflowIdReusePolicy;
  /** One queue for every workflow (tests); otherwise the workflow kind's own. */
  taskQueue?: string;
}) {
  return {
    workflowId: start.workflowId,
    taskQueue: startTaskQueue(start.workflow, start.taskQueue),
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: start.reuse,
    args: start.args,
    typedSearchAttributes: start.searchAttributes,
  };
}

/**
 * Sends an update (with its start, when it has one), sending it again when no worker processed
 * it, and answers a refusal as the DomainError it stands for.
 */
export async function sendUpdate<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await retryingUnprocessedUpdate(call);
  } catch (err) {
    return rethrowAsDomainError(err);
  }
}

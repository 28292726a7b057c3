import { type NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

let quiet = false;

/** Silences the SDK's own logging (workers, replays) for the rest of the test file. */
export function quietTemporalRuntime(): void {
  if (quiet) return;
  const none = () => undefined;
  Runtime.install({ logger: { log: none, trace: none, debug: none, info: none, warn: none, error: none } });
  quiet = true;
}

/**
 * A worker on a task queue of its own, running the workflow bundle the test run built once
 * (global-setup) with the given activities: the real ones (createActivities(deps)) or an
 * in-memory stand-in for a workflow's state-machine test.
 */
export async function bundledWorker(connection: NativeConnection, activities: object, options: { namespace?: string; taskQueue?: string } = {}): Promise<{ worker: Worker; taskQueue: string }> {
  const taskQueue = options.taskQueue ?? `wf-${randomUUID()}`;
  const worker = await Worker.create({
    connection,
    ...(options.namespace ? { namespace: options.namespace } : {}),
    taskQueue,
    workflowBundle: { code: readFileSync(process.env.TEST_WORKFLOW_BUNDLE!, 'utf8') },
    activities,
  });
  return { worker, taskQueue };
}

import { type NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { timeSkippingEnvironment } from './time-skipping';

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
export async function bundledWorker(
  connection: NativeConnection,
  activities: object,
  options: { namespace?: string; taskQueue?: string } = {},
): Promise<{ worker: Worker; taskQueue: string }> {
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

export interface MockedWorker {
  env: TestWorkflowEnvironment;
  taskQueue: string;
  /** Shuts the worker down, waits for it, then stops the server. */
  stop(): Promise<void>;
}

/**
 * A time-skipping test server of its own with a bundled worker running `activities` (the
 * in-memory stand-ins of a *.mocked.test.ts): one per test, since the Java server stops skipping
 * time once a workflow with updates and abandoned children has completed.
 */
export async function startMockedWorker(activities: object): Promise<MockedWorker> {
  const env = await timeSkippingEnvironment();
  const { worker, taskQueue } = await bundledWorker(env.nativeConnection, activities);
  const running = worker.run();
  return {
    env,
    taskQueue,
    async stop() {
      worker.shutdown();
      await running;
      await env.teardown();
    },
  };
}

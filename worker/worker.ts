import { bundleWorkflowCode, type NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { pollerOptions } from './pollers';

export interface WorkerSetup {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** Pre-built workflow bundle (tests share one); otherwise bundled from ../workflows. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /**
   * Tracing interceptors and their span sink (src/temporal/tracing.ts), only when tracing is on.
   * Their workflow module is bundled from ../workflows with them; a pre-built bundle must contain it.
   */
  tracing?: Pick<WorkerOptions, 'interceptors' | 'sinks'>;
}

export async function createWorker(setup: WorkerSetup): Promise<Worker> {
  return Worker.create({
    connection: setup.connection,
    namespace: setup.namespace,
    taskQueue: setup.taskQueue,
    ...pollerOptions(setup.taskQueue),
    activities: createActivities(setup.deps),
    ...(setup.workflowBundle ? { workflowBundle: setup.workflowBundle } : { workflowsPath: require.resolve('../workflows') }),
    ...setup.tracing,
  });
}

/**
 * One Worker per task queue (src/temporal/task-queues.ts), sharing the connection, the activities' deps
 * and one workflow bundle (bundled once, not once per queue). Each queue gets slots of its own, so that a
 * backlog on one never takes another's.
 */
export async function createWorkers(setup: Omit<WorkerSetup, 'taskQueue'>, taskQueues: readonly string[]): Promise<Worker[]> {
  const workflowBundle =
    setup.workflowBundle ??
    (await bundleWorkflowCode({
      workflowsPath: require.resolve('../workflows'),
      workflowInterceptorModules: setup.tracing?.interceptors?.workflowModules ?? [],
    }));
  const workers: Worker[] = [];
  for (const taskQueue of taskQueues) workers.push(await createWorker({ ...setup, taskQueue, workflowBundle }));
  return workers;
}

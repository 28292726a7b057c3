import { type NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { TASK_QUEUE } from '../src/temporal/task-queue';

export interface WorkerSetup {
  connection: NativeConnection;
  namespace: string;
  taskQueue?: string;
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
    taskQueue: setup.taskQueue ?? TASK_QUEUE,
    activities: createActivities(setup.deps),
    ...(setup.workflowBundle ? { workflowBundle: setup.workflowBundle } : { workflowsPath: require.resolve('../workflows') }),
    ...setup.tracing,
  });
}

import type { WorkerDeploymentVersion } from '@temporalio/common';
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
  /**
   * The Worker Deployment version this build polls as (src/temporal/worker-deployment.ts); unset: unversioned.
   * Versioned workers run the bundle of ../workflows/versioned (each type's versioning behaviour); a pre-built
   * bundle must be that one (bundleWorkflows(…, { versioned: true })).
   */
  deployment?: WorkerDeploymentVersion;
  /** In-memory stand-ins instead of createActivities(deps) (tests of routing, where what the activities do is not the point). */
  activities?: object;
}

/** The workflow code, bundled once per process: the versioned entry for versioned workers. */
export async function bundleWorkflows(interceptorModules: readonly string[], options: { versioned: boolean }): Promise<{ code: string }> {
  return bundleWorkflowCode({
    workflowsPath: require.resolve(options.versioned ? '../workflows/versioned' : '../workflows'),
    workflowInterceptorModules: [...interceptorModules],
  });
}

export async function createWorker(setup: WorkerSetup): Promise<Worker> {
  return Worker.create({
    connection: setup.connection,
    namespace: setup.namespace,
    taskQueue: setup.taskQueue,
    ...pollerOptions(setup.taskQueue),
    activities: setup.activities ?? createActivities(setup.deps),
    ...(setup.workflowBundle
      ? { workflowBundle: setup.workflowBundle }
      : { workflowsPath: require.resolve(setup.deployment ? '../workflows/versioned' : '../workflows') }),
    ...(setup.deployment
      ? {
          // Types the bundle tags are PINNED or AUTO_UPGRADE as tagged; the default is for none (every type is tagged).
          workerDeploymentOptions: { version: setup.deployment, useWorkerVersioning: true, defaultVersioningBehavior: 'AUTO_UPGRADE' },
        }
      : {}),
    ...setup.tracing,
  });
}

/**
 * One Worker per task queue (the names in src/temporal/task-queues.ts), sharing the connection, the activities' deps
 * and one workflow bundle (bundled once, not once per queue). Each queue gets slots of its own, so that a
 * backlog on one never takes another's.
 */
export async function createWorkers(setup: Omit<WorkerSetup, 'taskQueue'>, taskQueues: readonly string[]): Promise<Worker[]> {
  const workflowBundle = setup.workflowBundle ?? (await bundleWorkflows(setup.tracing?.interceptors?.workflowModules ?? [], { versioned: !!setup.deployment }));
  const workers: Worker[] = [];
  for (const taskQueue of taskQueues) workers.push(await createWorker({ ...setup, taskQueue, workflowBundle }));
  return workers;
}

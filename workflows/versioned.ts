// The workflow bundle's entry point for versioned workers (WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID set;
// worker/worker.ts picks it): every workflow type of ./index, each tagged with its versioning behaviour
// (src/temporal/versioning-behaviours.ts). Unversioned workers bundle ./index untagged: the server refuses a
// versioning behaviour from a worker that is not versioned.
import { setWorkflowOptions } from '@temporalio/workflow';
import { WORKFLOW_VERSIONING_BEHAVIOURS } from '../src/temporal/versioning-behaviours';
import type { WorkflowType } from '../src/temporal/task-queues';
import * as workflows from './index';

for (const type of Object.keys(WORKFLOW_VERSIONING_BEHAVIOURS) as WorkflowType[]) {
  const workflow: (...args: never[]) => Promise<unknown> = workflows[type];
  setWorkflowOptions({ versioningBehavior: WORKFLOW_VERSIONING_BEHAVIOURS[type] }, workflow);
}

export * from './index';

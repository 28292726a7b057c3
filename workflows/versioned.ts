// The workflow bundle's entry point for versioned workers (WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID set;
// worker/worker.ts picks it): every workflow type of ./index, each tagged with the versioning behaviour its
// contract states (its WorkflowKind, src/temporal/workflow-kind.ts). Unversioned workers bundle ./index untagged:
// the server refuses a versioning behaviour from a worker that is not versioned.
import { setWorkflowOptions } from '@temporalio/workflow';
import { workflowKinds } from '../src/temporal/workflow-kind';
import * as workflows from './index';

for (const kind of workflowKinds(workflows)) {
  const workflow: unknown = (workflows as Record<string, unknown>)[kind.type];
  if (typeof workflow !== 'function') throw new TypeError(`workflow kind ${kind.type} names no workflow of the bundle`);
  setWorkflowOptions({ versioningBehavior: kind.versioning }, workflow as (...args: never[]) => Promise<unknown>);
}

export * from './index';

import { WithStartWorkflowOperation, WorkflowIdReusePolicy, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SignatureOf } from '../../../temporal/workflow-kind';
import { DomainError } from '../../../domain/errors';
import {
  fundStablecoinOperationUpdate,
  STABLECOIN_OPERATION_WORKFLOW,
  type StablecoinOperationInput,
  type StablecoinStepOutcome,
  type StablecoinTiming,
  submitStablecoinOperationUpdate,
} from '../../../../workflows/stablecoins/definitions';
import { rethrowAsDomainError } from '../../../temporal/failures';
import { PlatformIdKey, StablecoinIdKey } from '../../../temporal/search-attributes';
import { joiningStart, sendUpdate } from '../../../temporal/joining-start';
import { retryingUnprocessedUpdate } from '../../../temporal/update-retry';

export interface OperationRef {
  id: string;
  stablecoinId: string;
  platformId: string;
}

function options(op: OperationRef, timing: StablecoinTiming, taskQueue?: string) {
  return joiningStart({
    workflow: STABLECOIN_OPERATION_WORKFLOW,
    workflowId: op.id,
    taskQueue,
    reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    args: [{ operationId: op.id, stablecoinId: op.stablecoinId, platformId: op.platformId, timing }] as [StablecoinOperationInput],
    searchAttributes: [
      { key: PlatformIdKey, value: op.platformId },
      { key: StablecoinIdKey, value: op.stablecoinId },
    ],
  });
}

/** Starts (or joins) the operation's workflow without waiting: the sweep's way to submit an operation whose start was lost. */
export async function startStablecoinOperation(
  client: Client,
  op: OperationRef,
  timing: StablecoinTiming,
  settings: { taskQueue?: string } = {},
): Promise<void> {
  await client.workflow.start<SignatureOf<typeof STABLECOIN_OPERATION_WORKFLOW>>(STABLECOIN_OPERATION_WORKFLOW.type, options(op, timing, settings.taskQueue));
}

/**
 * POST …/mints and …/burns: starts the operation's workflow (workflow id = operation id) and
 * waits until it has been submitted to the provider. A repeat joins the same run; after the run
 * ended, a new one finds the operation already submitted and answers where it stands (a refusal
 * at submission is an outcome, not a failure: the operation is FAILED with its reason).
 */
export async function submitStablecoinOperation(
  client: Client,
  op: OperationRef,
  timing: StablecoinTiming,
  settings: { taskQueue?: string } = {},
): Promise<StablecoinStepOutcome> {
  return sendUpdate(() =>
    client.workflow.executeUpdateWithStart(submitStablecoinOperationUpdate, {
      startWorkflowOperation: new WithStartWorkflowOperation<SignatureOf<typeof STABLECOIN_OPERATION_WORKFLOW>>(
        STABLECOIN_OPERATION_WORKFLOW.type,
        options(op, timing, settings.taskQueue),
      ),
    }),
  );
}

/** The sandbox's "funds arrived": only a running operation waits for funds. */
export async function fundStablecoinOperation(client: Client, operationId: string): Promise<StablecoinStepOutcome> {
  try {
    return await retryingUnprocessedUpdate(() => client.workflow.getHandle(operationId).executeUpdate(fundStablecoinOperationUpdate));
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new DomainError('INVALID_STATE_TRANSITION', 'The operation does not wait for funds');
    return rethrowAsDomainError(err);
  }
}

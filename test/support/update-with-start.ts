import type { WithStartWorkflowOperation, WorkflowClient } from '@temporalio/client';
import type { UpdateDefinition, Workflow } from '@temporalio/common';
import { randomUUID } from 'node:crypto';

/** How many times one update-with-start is sent to the time-skipping server. */
const ATTEMPTS = 3;

/**
 * Update-with-start as the mocked workflow tests send it to the Java time-skipping test server.
 *
 * Under load that server (1.31.0) can fail the call itself: `executeMultiOperation` reads the update's
 * handle before the start has registered it, and the NullPointerException reaches the client as gRPC
 * `UNKNOWN` ("Update-With-Start failed"). The dev server the API tests use does not. The call is sent
 * again with the same update id, so the re-send attaches to the workflow and update the first may have
 * created (conflict policy USE_EXISTING) and never runs the update twice; every other error is thrown as is.
 */
export async function executeUpdateWithStartOnTestServer<T extends Workflow, Ret, Args extends unknown[]>(
  client: WorkflowClient,
  update: UpdateDefinition<Ret, Args>,
  options: { args?: Args; updateId?: string; startWorkflowOperation: () => WithStartWorkflowOperation<T> },
): Promise<Ret> {
  const updateId = options.updateId ?? randomUUID();
  for (let attempt = 1; ; attempt++) {
    // An operation is single-use: the SDK settles its handle with the first call's outcome.
    const startWorkflowOperation = options.startWorkflowOperation();
    try {
      return await client.executeUpdateWithStart(update, { args: options.args, updateId, startWorkflowOperation });
    } catch (err) {
      if (!isTestServerFailure(err) || attempt >= ATTEMPTS) throw err;
    }
  }
}

function isTestServerFailure(err: unknown): boolean {
  const failure = err as { message?: unknown; cause?: { code?: unknown } } | undefined;
  return failure?.message === 'Update-With-Start failed' && failure.cause?.code === GRPC_UNKNOWN;
}

const GRPC_UNKNOWN = 2;

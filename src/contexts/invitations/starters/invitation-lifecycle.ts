import { WithStartWorkflowOperation, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { SignatureOf } from '../../../temporal/workflow-kind';
import {
  cancelInvitationUpdate,
  claimInvitationUpdate,
  INVITATION_LIFECYCLE_WORKFLOW,
  type InvitationLifecycleInput,
} from '../../../../workflows/invitations/definitions';
import type { InvitationView } from '../domain/uma-invitation';
import { domainErrorFrom } from '../../../temporal/failures';
import { BusinessStatusKey, CustomerIdKey, PlatformIdKey } from '../../../temporal/search-attributes';
import { joiningStart } from '../../../temporal/joining-start';

/**
 * The lifecycle workflow of one invitation (workflow id = its code). Claims and cancellations
 * start it when it is missing (a crash between the insert and the start) and otherwise join the
 * running one; a finished run is never started again (the invitation is settled then).
 */
function operation(input: InvitationLifecycleInput, taskQueue?: string) {
  return joiningStart({
    workflow: INVITATION_LIFECYCLE_WORKFLOW,
    workflowId: input.code,
    taskQueue,
    reuse: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    args: [input] as [InvitationLifecycleInput],
    searchAttributes: [
      { key: PlatformIdKey, value: input.platformId },
      { key: CustomerIdKey, value: input.inviterCustomerId },
      { key: BusinessStatusKey, value: 'PENDING' },
    ],
  });
}

export async function startInvitationLifecycle(client: Client, input: InvitationLifecycleInput, options: { taskQueue?: string } = {}): Promise<void> {
  await client.workflow.start<SignatureOf<typeof INVITATION_LIFECYCLE_WORKFLOW>>(INVITATION_LIFECYCLE_WORKFLOW.type, operation(input, options.taskQueue));
}

/**
 * A claim or cancellation through the workflow. A refusal with a §7 code is thrown as it is;
 * anything else (the run had already ended) is `undefined`, and the caller answers from the row.
 */
async function settle(
  client: Client,
  input: InvitationLifecycleInput,
  send: (op: WithStartWorkflowOperation<SignatureOf<typeof INVITATION_LIFECYCLE_WORKFLOW>>) => Promise<InvitationView>,
  taskQueue?: string,
): Promise<InvitationView | undefined> {
  try {
    return await send(
      new WithStartWorkflowOperation<SignatureOf<typeof INVITATION_LIFECYCLE_WORKFLOW>>(INVITATION_LIFECYCLE_WORKFLOW.type, operation(input, taskQueue)),
    );
  } catch (err) {
    const refusal = domainErrorFrom(err);
    if (refusal) throw refusal;
    return undefined;
  }
}

export function claimThroughWorkflow(client: Client, input: InvitationLifecycleInput, inviteeUma: string, options: { taskQueue?: string } = {}) {
  return settle(
    client,
    input,
    (startWorkflowOperation) => client.workflow.executeUpdateWithStart(claimInvitationUpdate, { args: [{ inviteeUma }], startWorkflowOperation }),
    options.taskQueue,
  );
}

export function cancelThroughWorkflow(client: Client, input: InvitationLifecycleInput, options: { taskQueue?: string } = {}) {
  return settle(
    client,
    input,
    (startWorkflowOperation) => client.workflow.executeUpdateWithStart(cancelInvitationUpdate, { args: [], startWorkflowOperation }),
    options.taskQueue,
  );
}

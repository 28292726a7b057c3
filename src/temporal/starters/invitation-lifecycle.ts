import { WithStartWorkflowOperation, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { invitationLifecycle } from '../../../workflows/invitations/invitation-lifecycle';
import { cancelInvitationUpdate, claimInvitationUpdate, type InvitationLifecycleInput } from '../../../workflows/invitations/definitions';
import type { InvitationView } from '../../contexts/invitations/services/invitation-views';
import { domainErrorFrom } from '../failures';
import { BusinessStatusKey, CustomerIdKey, PlatformIdKey } from '../search-attributes';
import { joiningStart } from '../joining-start';

/**
 * The lifecycle workflow of one invitation (workflow id = its code). Claims and cancellations
 * start it when it is missing (a crash between the insert and the start) and otherwise join the
 * running one; a finished run is never started again (the invitation is settled then).
 */
function operation(input: InvitationLifecycleInput, taskQueue?: string) {
  return joiningStart({
    workflowType: 'invitationLifecycle',
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
  await client.workflow.start<typeof invitationLifecycle>('invitationLifecycle', operation(input, options.taskQueue));
}

/**
 * A claim or cancellation through the workflow. A refusal with a §7 code is thrown as it is;
 * anything else (the run had already ended) is `undefined`, and the caller answers from the row.
 */
async function settle(
  client: Client,
  input: InvitationLifecycleInput,
  send: (op: WithStartWorkflowOperation<typeof invitationLifecycle>) => Promise<InvitationView>,
  taskQueue?: string,
): Promise<InvitationView | undefined> {
  try {
    return await send(new WithStartWorkflowOperation<typeof invitationLifecycle>('invitationLifecycle', operation(input, taskQueue)));
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

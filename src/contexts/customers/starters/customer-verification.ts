import { WithStartWorkflowOperation, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import {
  CUSTOMER_VERIFICATION_WORKFLOW,
  type CustomerVerificationInput,
  submitVerification,
  VERIFICATION_ALREADY_DECIDED,
  type VerificationSnapshot,
} from '../../../../workflows/customers/definitions';
import { DomainError } from '../../../domain/errors';
import { domainErrorFrom } from '../../../temporal/failures';
import { CustomerIdKey, PlatformIdKey } from '../../../temporal/search-attributes';
import type { SignatureOf } from '../../../temporal/workflow-kind';
import { joiningStart } from '../../../temporal/joining-start';

/**
 * Sends a submission (POST /verifications) to the customer's verification workflow and returns
 * the evaluated verification. One update-with-start: the server attaches the update to the
 * running workflow (workflow id = verification id) or starts a new run when none is running, in
 * one step, so there is no window in which the workflow ends between a start and an update.
 */
export async function submitCustomerVerification(
  client: Client,
  input: CustomerVerificationInput,
  options: { taskQueue?: string } = {},
): Promise<VerificationSnapshot> {
  const startWorkflowOperation = new WithStartWorkflowOperation<SignatureOf<typeof CUSTOMER_VERIFICATION_WORKFLOW>>(
    CUSTOMER_VERIFICATION_WORKFLOW.type,
    joiningStart({
      workflow: CUSTOMER_VERIFICATION_WORKFLOW,
      workflowId: input.verificationId,
      taskQueue: options.taskQueue,
      reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      args: [input] as [CustomerVerificationInput],
      searchAttributes: [
        { key: PlatformIdKey, value: input.platformId },
        { key: CustomerIdKey, value: input.customerId },
      ],
    }),
  );
  try {
    return await client.workflow.executeUpdateWithStart(submitVerification, { startWorkflowOperation });
  } catch (err) {
    const refusal = domainErrorFrom(err);
    // Decided already (a race with the API's own check): reported on the field, like that check.
    if (refusal?.code === VERIFICATION_ALREADY_DECIDED)
      throw DomainError.invalidInput([{ field: 'customerId', constraint: 'notDecided', message: refusal.reason }], refusal.reason);
    throw refusal ?? err;
  }
}

import { WithStartWorkflowOperation, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { customerVerification } from '../../../workflows/customers/customer-verification';
import {
  submitVerification,
  VERIFICATION_ALREADY_DECIDED,
  type CustomerVerificationInput,
  type VerificationSnapshot,
} from '../../../workflows/customers/definitions';
import { DomainError } from '../../domain/errors';
import { domainErrorFrom } from '../failures';
import { CustomerIdKey, PlatformIdKey } from '../search-attributes';
import { joiningStart } from '../joining-start';

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
  const startWorkflowOperation = new WithStartWorkflowOperation<typeof customerVerification>(
    'customerVerification',
    joiningStart({
      workflowType: 'customerVerification',
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

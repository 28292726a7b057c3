import { WorkflowExecutionAlreadyStartedError, WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { incomingPayment } from '../../../workflows/payments/incoming-payment';
import type { IncomingPaymentInput, IncomingPaymentResult } from '../../../workflows/definitions';
import { rethrowAsDomainError } from '../failures';
import { AccountIdKey, BusinessStatusKey, CustomerIdKey, PlatformIdKey, TransactionIdKey } from '../search-attributes';
import { TASK_QUEUE } from '../task-queue';

/**
 * Runs the incoming payment of `input.transactionId` and returns its outcome. The workflow id
 * is the transaction id, so a repeat (a retried request, an idempotency record that expired)
 * attaches to the one payment there is, running or finished, and never starts a second one. A
 * refusal from inside the payment comes back as the DomainError it stands for.
 */
export async function runIncomingPayment(client: Client, input: IncomingPaymentInput, options: { taskQueue?: string } = {}): Promise<IncomingPaymentResult> {
  try {
    const handle = await client.workflow
      .start<typeof incomingPayment>('incomingPayment', {
        workflowId: input.transactionId,
        taskQueue: options.taskQueue ?? TASK_QUEUE,
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        args: [input],
        typedSearchAttributes: [
          { key: PlatformIdKey, value: input.platformId },
          { key: TransactionIdKey, value: input.transactionId },
          { key: AccountIdKey, value: input.internalAccountId },
          { key: BusinessStatusKey, value: 'PENDING' },
          ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
        ],
      })
      .catch((err: unknown) => {
        if (err instanceof WorkflowExecutionAlreadyStartedError) return client.workflow.getHandle<typeof incomingPayment>(input.transactionId);
        throw err;
      });
    return await handle.result();
  } catch (err) {
    return rethrowAsDomainError(err);
  }
}

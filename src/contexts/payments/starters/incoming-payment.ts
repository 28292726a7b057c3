import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { SignatureOf } from '../../../temporal/workflow-kind';
import {
  decideIncomingPaymentUpdate,
  INCOMING_PAYMENT_WORKFLOW,
  type IncomingPaymentInput,
  incomingPaymentPosted,
  type IncomingPaymentResult,
  type PlatformDecision,
} from '../../../../workflows/payments/definitions';
import { DomainError, isErrorCode } from '../../../domain/errors';
import { domainErrorFrom, rethrowAsDomainError, runIsOver } from '../../../temporal/failures';
import { AccountIdKey, BusinessStatusKey, CustomerIdKey, PlatformIdKey, TransactionIdKey } from '../../../temporal/search-attributes';
import { joiningStart } from '../../../temporal/joining-start';
import { retryingUnprocessedUpdate } from '../../../temporal/update-retry';

/**
 * Runs the incoming payment of `input.transactionId` and returns as soon as the money is posted
 * (one update-with-start: the workflow's `posted` update answers before webhook delivery). The
 * workflow id is the transaction id, so a repeat (a retried request, an idempotency record that
 * expired) attaches to the one payment there is, running or finished, and never starts a second
 * one. A refusal comes back as the DomainError it stands for.
 */
export async function runIncomingPayment(client: Client, input: IncomingPaymentInput, options: { taskQueue?: string } = {}): Promise<IncomingPaymentResult> {
  // An operation serves one call: every attempt builds its own.
  const startWorkflowOperation = () =>
    new WithStartWorkflowOperation<SignatureOf<typeof INCOMING_PAYMENT_WORKFLOW>>(
      INCOMING_PAYMENT_WORKFLOW.type,
      joiningStart({
        workflow: INCOMING_PAYMENT_WORKFLOW,
        workflowId: input.transactionId,
        taskQueue: options.taskQueue,
        reuse: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        args: [input] as [IncomingPaymentInput],
        searchAttributes: [
          { key: PlatformIdKey, value: input.platformId },
          { key: TransactionIdKey, value: input.transactionId },
          { key: AccountIdKey, value: input.internalAccountId },
          { key: BusinessStatusKey, value: 'PENDING' },
          ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
        ],
      }),
    );
  try {
    return await retryingUnprocessedUpdate(() =>
      client.workflow.executeUpdateWithStart(incomingPaymentPosted, { startWorkflowOperation: startWorkflowOperation() }),
    );
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) return rethrowAsDomainError(err);
  }
  // The payment finished earlier: answer with its outcome.
  try {
    const finished = await client.workflow.getHandle<SignatureOf<typeof INCOMING_PAYMENT_WORKFLOW>>(input.transactionId).result();
    if (finished.refusal) throw new DomainError(isErrorCode(finished.refusal.code) ? finished.refusal.code : 'FORBIDDEN', finished.refusal.message);
    return finished;
  } catch (err) {
    return rethrowAsDomainError(err);
  }
}

/**
 * The platform's decision on a UMA payment that waits for it (POST /transactions/{id}/approve or
 * /reject), answered once carried out. The update id derives from the request's key: a retried
 * request joins its first decision. A payment that waits for none (decided, timed out, its
 * workflow over) is TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL.
 */
export async function decideIncomingPayment(
  client: Client,
  transactionId: string,
  decision: PlatformDecision,
  decisionKey: string,
): Promise<IncomingPaymentResult> {
  try {
    return await retryingUnprocessedUpdate(() =>
      client.workflow.getHandle(transactionId).executeUpdate(decideIncomingPaymentUpdate, { args: [decision], updateId: `platform-decision:${decisionKey}` }),
    );
  } catch (err) {
    const refusal = domainErrorFrom(err);
    if (refusal) throw refusal;
    if (runIsOver(err)) {
      throw new DomainError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', 'The transaction is not waiting for the platform to approve or reject it');
    }
    throw err;
  }
}

import { WithStartWorkflowOperation, WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { quote } from '../../../workflows/payments/quote';
import { cancelPayoutUpdate, executeQuoteUpdate, fundQuoteUpdate, type QuoteExecution, type QuoteInput } from '../../../workflows/definitions';
import { WorkflowNotFoundError } from '@temporalio/common';
import { DomainError } from '../../domain/errors';
import { domainErrorFrom } from '../failures';
import { rethrowAsDomainError } from '../failures';
import { CustomerIdKey, PlatformIdKey, QuoteIdKey, TransactionIdKey, BusinessStatusKey } from '../search-attributes';
import { TASK_QUEUE } from '../task-queue';
import { retryingUnprocessedUpdate } from '../update-retry';

function operation(input: QuoteInput, taskQueue?: string) {
  return {
    workflowId: input.quoteId,
    taskQueue: taskQueue ?? TASK_QUEUE,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    args: [input] as [QuoteInput],
    typedSearchAttributes: [
      { key: PlatformIdKey, value: input.platformId },
      { key: QuoteIdKey, value: input.quoteId },
      { key: TransactionIdKey, value: input.transactionId },
      { key: BusinessStatusKey, value: 'PENDING' },
      ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
    ],
  };
}

/** Starts the quote's workflow unless it runs; an operation serves one call, so every attempt builds its own. */
function withStart(input: QuoteInput, taskQueue?: string) {
  return new WithStartWorkflowOperation<typeof quote>('quote', operation(input, taskQueue));
}

/** Starts the quote's workflow (id = quote id): it waits for execution or expires on its timer. */
export async function startQuote(client: Client, input: QuoteInput, options: { taskQueue?: string } = {}): Promise<void> {
  await client.workflow.start<typeof quote>('quote', operation(input, options.taskQueue));
}

/**
 * Executes a quote: the update joins the quote's running workflow, or starts one to answer when
 * the workflow has ended (an expired quote is then refused, an executed one answered with its
 * transaction marked as a repeat), so a repeat never executes twice.
 */
export async function executeQuote(client: Client, input: QuoteInput, options: { taskQueue?: string } = {}): Promise<QuoteExecution> {
  try {
    return await retryingUnprocessedUpdate(() => client.workflow.executeUpdateWithStart(executeQuoteUpdate, { startWorkflowOperation: withStart(input, options.taskQueue) }));
  } catch (err) {
    return rethrowAsDomainError(err);
  }
}

/** The funds of a real-time-funded quote arrived: the payment starts as if executed. */
export async function fundQuote(client: Client, input: QuoteInput, amount: bigint, options: { taskQueue?: string } = {}): Promise<QuoteExecution> {
  try {
    return await retryingUnprocessedUpdate(() => client.workflow.executeUpdateWithStart(fundQuoteUpdate, { args: [{ amount: amount.toString() }], startWorkflowOperation: withStart(input, options.taskQueue) }));
  } catch (err) {
    return rethrowAsDomainError(err);
  }
}

/**
 * Cancels an outgoing payment the bank has not settled (its workflow, id = transaction id, is
 * waiting for the rail). A payment whose workflow has finished, or that the rail has answered,
 * is TRANSACTION_NOT_CANCELLABLE.
 */
export async function cancelPayout(client: Client, transactionId: string, reason?: string): Promise<void> {
  try {
    await client.workflow.getHandle(transactionId).executeUpdate(cancelPayoutUpdate, { args: [{ ...(reason ? { reason } : {}) }] });
  } catch (err) {
    const refusal = domainErrorFrom(err);
    if (refusal) throw refusal;
    if (err instanceof WorkflowNotFoundError || (err instanceof Error && /not found|completed|closed/i.test(err.message))) {
      throw new DomainError('TRANSACTION_NOT_CANCELLABLE', 'The transfer has been processed and can no longer be cancelled');
    }
    throw err;
  }
}

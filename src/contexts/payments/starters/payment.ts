import { WithStartWorkflowOperation, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { SignatureOf } from '../../../temporal/workflow-kind';
import {
  cancelPayoutUpdate,
  decideHoldUpdate,
  executePaymentUpdate,
  fundQuoteUpdate,
  type HoldDecisionRequest,
  PAYMENT_WORKFLOW,
  type PaymentExecution,
  type QuoteInput,
} from '../../../../workflows/payments/definitions';
import { WorkflowNotFoundError } from '@temporalio/common';
import { DomainError } from '../../../domain/errors';
import { domainErrorFrom, rethrowAsDomainError, runIsOver } from '../../../temporal/failures';
import { CustomerIdKey, PlatformIdKey, QuoteIdKey, TransactionIdKey, BusinessStatusKey } from '../../../temporal/search-attributes';
import { joiningStart, sendUpdate } from '../../../temporal/joining-start';
import { retryingUnprocessedUpdate } from '../../../temporal/update-retry';

/**
 * The one starter of the payment workflow: one workflow per payment, from its quote's creation to
 * its end. Its id is the TRANSACTION id (assigned when the quote is made): whatever starts it —
 * the quote's creation, an execution, the arrival of funds, a sweeper — joins the one payment, and
 * no retry can start a second. The quote id is a search attribute. (Quotes made before this
 * workflow existed ran a `quote` workflow, id = quote id, with the payment as its child; those
 * runs finish on their own code.)
 */
function operation(input: QuoteInput, taskQueue?: string) {
  return joiningStart({
    workflow: PAYMENT_WORKFLOW,
    workflowId: input.transactionId,
    taskQueue,
    reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    args: [input] as [QuoteInput],
    searchAttributes: [
      { key: PlatformIdKey, value: input.platformId },
      { key: QuoteIdKey, value: input.quoteId },
      { key: TransactionIdKey, value: input.transactionId },
      { key: BusinessStatusKey, value: 'PENDING' },
      ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
    ],
  });
}

/** Starts the payment's workflow unless it runs; an operation serves one call, so every attempt builds its own. */
function withStart(input: QuoteInput, taskQueue?: string) {
  return new WithStartWorkflowOperation<SignatureOf<typeof PAYMENT_WORKFLOW>>(PAYMENT_WORKFLOW.type, operation(input, taskQueue));
}

/** Starts the payment's workflow with its quote: it waits for execution or expires the quote on its timer. */
export async function startQuote(client: Client, input: QuoteInput, options: { taskQueue?: string } = {}): Promise<void> {
  await client.workflow.start<SignatureOf<typeof PAYMENT_WORKFLOW>>(PAYMENT_WORKFLOW.type, operation(input, options.taskQueue));
}

/**
 * Executes a quote: the update joins the payment's running workflow, or starts one to answer when
 * it has ended. The update id is the request's key, so Temporal answers a retry of the request
 * (same key) with its first outcome, and the execution records the key, so a retry that comes
 * after the workflow ended is told from another request (a repeat, 409). `approved`: the gates
 * the request's proof satisfies (checked by the caller before it asks).
 */
export async function executeThroughPaymentWorkflow(
  client: Client,
  input: QuoteInput,
  options: { requestKey: string; taskQueue?: string; approved?: string[] },
): Promise<PaymentExecution> {
  return sendUpdate(() =>
    client.workflow.executeUpdateWithStart(executePaymentUpdate, {
      args: [{ requestKey: options.requestKey, ...(options.approved?.length ? { approved: options.approved } : {}) }],
      updateId: `execute:${options.requestKey}`,
      startWorkflowOperation: withStart(input, options.taskQueue),
    }),
  );
}

/**
 * Tells the payment's running workflow of the execution a request recorded, when the quote says it is
 * executed (by that request) and the caller cannot know whether the workflow heard of it: the execution
 * step runs in the workflow task that answers the execute update, and a task the server loses takes the
 * update with it while the step's commit stands. The same update again (same id) is answered from the
 * workflow's record when it has the execution, and otherwise gives it the recorded one. A run that is over
 * has nothing to hear.
 */
export async function confirmExecution(client: Client, transactionId: string, requestKey: string): Promise<void> {
  try {
    await retryingUnprocessedUpdate(() =>
      client.workflow.getHandle(transactionId).executeUpdate(executePaymentUpdate, { args: [{ requestKey }], updateId: `execute:${requestKey}` }),
    );
  } catch (err) {
    if (runIsOver(err)) return;
    return rethrowAsDomainError(err);
  }
}

/**
 * The funds of a real-time-funded quote arrived: the payment starts as if executed. Every arrival
 * after the first is answered with the one payment (a repeat); the request's key, when it has
 * one, is the update id, so a retry joins its first attempt.
 */
export async function fundQuote(
  client: Client,
  input: QuoteInput,
  amount: bigint,
  options: { taskQueue?: string; requestKey?: string } = {},
): Promise<PaymentExecution> {
  return sendUpdate(() =>
    client.workflow.executeUpdateWithStart(fundQuoteUpdate, {
      args: [{ amount: amount.toString() }],
      ...(options.requestKey ? { updateId: `fund:${options.requestKey}` } : {}),
      startWorkflowOperation: withStart(input, options.taskQueue),
    }),
  );
}

/**
 * Decides a held payment (its gate's name): approved, the execution runs again with that gate
 * passing; rejected, the payment fails. `CONFLICT` when the payment is not held by that gate.
 * A decision's own id makes its retries one decision.
 */
export async function decideHold(client: Client, transactionId: string, decision: HoldDecisionRequest & { decisionId: string }): Promise<PaymentExecution> {
  const { decisionId, ...request } = decision;
  try {
    return await retryingUnprocessedUpdate(() =>
      client.workflow.getHandle(transactionId).executeUpdate(decideHoldUpdate, { args: [request], updateId: `decide:${decisionId}` }),
    );
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new DomainError('CONFLICT', `The payment is not held by ${decision.gate}`);
    return rethrowAsDomainError(err);
  }
}

/**
 * Cancels an outgoing payment the bank has not settled (its workflow, id = transaction id, is
 * waiting for the rail). A payment whose workflow has finished, or that the rail has answered,
 * is TRANSACTION_NOT_CANCELLABLE. The request's key, when it has one, is the update id: a retry
 * joins the first cancel. Concurrent cancels need no turn-taking: the workflow refuses every
 * cancel once the rail answered, and every accepted one waits for the one refund.
 */
export async function cancelPayout(client: Client, transactionId: string, request: { reason?: string; requestKey?: string } = {}): Promise<void> {
  try {
    await retryingUnprocessedUpdate(() =>
      client.workflow.getHandle(transactionId).executeUpdate(cancelPayoutUpdate, {
        args: [{ ...(request.reason ? { reason: request.reason } : {}) }],
        ...(request.requestKey ? { updateId: `cancel:${request.requestKey}` } : {}),
      }),
    );
  } catch (err) {
    const refusal = domainErrorFrom(err);
    if (refusal) throw refusal;
    if (runIsOver(err)) {
      throw new DomainError('TRANSACTION_NOT_CANCELLABLE', 'The transfer has been processed and can no longer be cancelled');
    }
    throw err;
  }
}

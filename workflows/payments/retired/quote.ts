// RETIRED since 5cc2062 (2026-11-26, "One workflow per payment"): nothing starts `quote` any more (new
// quotes start `payment`, workflows/payments/payment.ts). Kept, unchanged in what it does, because a
// deployment upgraded from an earlier build may still hold an open run (one whose workers were stopped
// across the upgrade: such runs predate versioned workers, d1e35ed, so whichever build is current finishes them).
// Delete it, with retired/outgoing-payment.ts, their entries in workflows/payments/index.ts and the
// task-queue and versioning lists, and test/histories/{quote,outgoingPayment}, once every deployment
// that ran a build before 5cc2062 counts none open:
//   temporal workflow count --query "WorkflowType IN ('quote', 'outgoingPayment') AND ExecutionStatus = 'Running'"
// Kept honest by test/replay/replay.test.ts (test/histories/quote/*.json) and the quote cases of
// test/workflows/payments.mocked.test.ts.
import {
  allHandlersFinished,
  condition,
  ParentClosePolicy,
  patched,
  proxyLocalActivities,
  setHandler,
  startChild,
  upsertSearchAttributes,
  WorkflowIdReusePolicy,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { PaymentActivities } from '../../../activities/payments';
import type { Execution } from '../../../src/contexts/payments/services/quote-execution';
import { BusinessStatusKey, CustomerIdKey, PlatformIdKey, QuoteIdKey, TransactionIdKey } from '../../../src/temporal/search-attributes';
import { deliverEvents } from '../../webhooks/announce';
import { executeQuoteUpdate, fundQuoteUpdate, type QuoteExecution, type QuoteInput } from '../definitions';
import { outgoingPayment } from './outgoing-payment';
import { asApplicationFailure } from '../../update-failures';

// Short database steps: local activities, no task round trip through the server. Refusals (every
// DomainError: an expired quote, insufficient funds, a gate's code) reach the workflow as
// non-retryable failures already (activities/failures.ts), so no list of them is kept here.
const { executeQuote, fundQuote, expireQuote } = proxyLocalActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * Marks runs that leave the execution's webhooks to the payment (which delivers them with its
 * first step's) and answer once the payment has started: one workflow task and one activity task
 * fewer per payment than before, and no webhook receiver between the caller and its answer.
 */
export const PAYMENT_ANNOUNCES_EXECUTION = 'payment-announces-execution';

/**
 * One quote (workflow id = quote id), from its creation to its execution or expiry. Execution is
 * an update answered with the transaction as soon as the funds are held; the payment itself then
 * runs in its own workflow (id = transaction id), started here and left to run. A quote not
 * executed within its lifetime expires on a durable timer and is announced.
 */
export async function quote(input: QuoteInput): Promise<string> {
  let execution: QuoteExecution | null = null;
  let busy = false;
  // Execution (a held source) and funding (money from outside) start the payment the same way.
  const start = async (step: () => Promise<Execution>): Promise<QuoteExecution> => {
    await condition(() => !busy);
    if (execution) return { ...execution, repeat: true };
    busy = true;
    try {
      const executed = await step().catch((err: unknown) => {
        throw asApplicationFailure(err);
      });
      execution = { transactionId: executed.transactionId };
      upsertSearchAttributes([{ key: BusinessStatusKey, value: 'PROCESSING' }]);
      const announcedByPayment = patched(PAYMENT_ANNOUNCES_EXECUTION);
      const payment = startChild(outgoingPayment, {
        workflowId: executed.transactionId,
        args: [
          {
            transactionId: executed.transactionId,
            quoteId: input.quoteId,
            platformId: input.platformId,
            customerId: input.customerId,
            plan: executed.plan,
            ...(executed.pull ? { pull: executed.pull } : {}),
            ...(announcedByPayment ? { announce: executed.events } : {}),
          },
        ],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: attributes(input),
      }).then(
        () => undefined,
        (err: unknown) => {
          // The payment runs (or ran) already: this was a repeat, announced by that payment.
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        },
      );
      // Answered once the payment's workflow exists, so that it can be cancelled or queried at once.
      await payment;
      if (!announcedByPayment) await deliverEvents(input.platformId, executed.events, attributes(input));
      // A run started after an earlier one had executed the quote finds it executed: a repeat too.
      return { ...execution, repeat: executed.repeat === true };
    } finally {
      busy = false;
    }
  };
  // No gate holds the executions of runs of this type (they began before gates could hold).
  setHandler(executeQuoteUpdate, () => start(() => executeQuote({ quoteId: input.quoteId }) as Promise<Execution>));
  setHandler(fundQuoteUpdate, ({ amount }) => start(() => fundQuote({ quoteId: input.quoteId, amount })));

  const executed = await condition(() => execution !== null, input.lifetimeSeconds * 1000);
  if (!executed) {
    await condition(() => !busy);
    if (!execution) {
      const expired = await expireQuote({ quoteId: input.quoteId });
      if (expired.events.length > 0) upsertSearchAttributes([{ key: BusinessStatusKey, value: 'EXPIRED' }]);
      await deliverEvents(input.platformId, expired.events, attributes(input));
    }
  }
  await condition(allHandlersFinished);
  return execution ? 'EXECUTED' : 'EXPIRED';
}

function attributes(input: QuoteInput) {
  return [
    { key: PlatformIdKey, value: input.platformId },
    { key: QuoteIdKey, value: input.quoteId },
    { key: TransactionIdKey, value: input.transactionId },
    ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
  ];
}

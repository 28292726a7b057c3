import { allHandlersFinished, condition, sleep } from '@temporalio/workflow';
import { awaitExecution } from './await-execution';
import type { PaymentInput } from './definitions';
import { handleRequestsBeforeExecution } from './payment-handlers';
import { preExecution } from './pre-execution';
import { runPayment } from './run-payment';

/**
 * One payment, from its quote to its end, in one workflow (workflow id = transaction id; the quote
 * id is a search attribute). Read top to bottom:
 *
 * 1. Before it runs (await-execution.ts, its handlers in payment-handlers.ts): it waits for the
 *    quote's execution (an update answered once the funds are held) or the arrival of its funds,
 *    or expires the quote on a durable timer. An execution a gate holds waits for the hold's
 *    decision (approve: executed again, the gate passing; reject: FAILED) or its expiry (EXPIRED).
 * 2. The run (run-payment.ts): the rail's answer on a timer, settlement or refund, returns; the
 *    platform may cancel until the rail answered.
 *
 * Webhooks go out from a local activity. A payout costs 3 workflow tasks and no activity task.
 */
export async function payment(input: PaymentInput): Promise<string> {
  const waiting = preExecution(input);
  handleRequestsBeforeExecution(waiting);
  // The quote's lifetime is not cancelled once executed: a timer left to fire costs no event.
  void sleep(input.lifetimeSeconds * 1000).then(() => (waiting.lifetimeOver = true));

  const waited = await awaitExecution(waiting);
  if ('ended' in waited) return endWith(waited.ended);
  const { execution } = waited;
  // A run started only to answer a later request (an earlier run carried the payment to its end).
  if (execution.ended) return endWith('ANSWERED');
  return endWith(
    await runPayment({
      transactionId: input.transactionId,
      platformId: input.platformId,
      plan: execution.plan,
      ...(execution.pull ? { pull: execution.pull } : {}),
      attributes: waiting.attributes,
      unannounced: execution.events,
      localDelivery: true,
      showWaiting: true,
      answerFirst: true,
    }),
  );
}

/** The workflow ends once every update it accepted is answered. */
async function endWith(outcome: string): Promise<string> {
  await condition(allHandlersFinished);
  return outcome;
}

import { allHandlersFinished, ApplicationFailure, condition, proxyLocalActivities, setHandler, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { PaymentActivities } from '../../activities/payments';
import { BusinessStatusKey, CustomerIdKey, QuoteIdKey, TransactionIdKey } from '../../src/temporal/search-attributes';
import { deliverEvents } from '../webhooks/announce';
import { cancelPayoutUpdate, TRANSACTION_NOT_CANCELLABLE, type OutgoingPaymentInput } from '../definitions';

const { completeOutgoingPayment, failOutgoingPayment, returnOutgoingPayment, returnPulledPayment } = proxyLocalActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * A payment after its quote was executed (workflow id = transaction id): for a pull-funded quote
 * first the bank's answer to the pull, then the simulated rail's answer for the destination —
 * delays are durable timers — then settlement (the hold leaves, fees to their accounts) or the
 * refund of the hold, and for a returned payout the refund of the settled amount, for a returned
 * pull the credit taken back. Each step is one database transaction with its webhook events.
 * (A pull into an internal account is an INCOMING transaction; it runs here all the same.)
 */
export async function outgoingPayment(input: OutgoingPaymentInput): Promise<string> {
  const { plan, transactionId } = input;
  const attributes = [
    { key: TransactionIdKey, value: transactionId },
    { key: QuoteIdKey, value: input.quoteId },
    ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
  ];
  // Runs handed the execution's events deliver them with their first step's, in a local activity
  // (nobody waits for this workflow's tasks); older runs deliver each step's through an activity.
  let unannounced = input.announce ?? [];
  const deliver = async (events: { eventId: string; type: string }[]) => {
    const all = [...unannounced, ...events];
    unannounced = [];
    await deliverEvents(input.platformId, all, attributes, { local: input.announce !== undefined });
  };
  const step = async (run: () => Promise<{ events: { eventId: string; type: string }[] }>, status: string) => {
    const { events } = await run();
    upsertSearchAttributes([{ key: BusinessStatusKey, value: status }]);
    await deliver(events);
  };
  const fail = (kind: Parameters<typeof failOutgoingPayment>[0]['kind']) => step(() => failOutgoingPayment({ transactionId, kind }), 'FAILED');

  // While the rail has not answered (the delays below), the platform may cancel: the payout
  // fails and is refunded. Once the rail answered, it is too late.
  let cancellable = true;
  let cancelRequested = false;
  let cancelled = false;
  setHandler(
    cancelPayoutUpdate,
    async (_request) => {
      cancelRequested = true;
      await condition(() => cancelled);
      return { transactionId };
    },
    {
      validator: (_request) => {
        if (!cancellable) throw ApplicationFailure.create({ type: TRANSACTION_NOT_CANCELLABLE, message: 'The transfer has been processed and can no longer be cancelled', nonRetryable: true });
      },
    },
  );
  /** Waits for the rail; true when the platform cancelled meanwhile (the payout is then failed and refunded). */
  const after = async (seconds: number): Promise<boolean> => {
    // Waiting for the bank: the execution is announced now rather than after the wait.
    if (seconds > 0 && unannounced.length > 0) await deliver([]);
    if (seconds > 0) await condition(() => cancelRequested, seconds * 1000);
    cancellable = false;
    if (!cancelRequested) return false;
    await fail('CANCELLED_BY_PLATFORM');
    cancelled = true;
    await condition(allHandlersFinished);
    return true;
  };

  // The pull's answer comes first; runs without `pull` (every one before pulls existed) skip it.
  if (input.pull?.outcome === 'FAILS') {
    if (await after(input.pull.afterSeconds)) return 'FAILED';
    await fail('PULL_FAILED');
    return 'FAILED';
  }

  switch (plan.outcome) {
    case 'COMPLETES':
      if (await after(plan.afterSeconds)) return 'FAILED';
      await step(() => completeOutgoingPayment({ transactionId }), 'COMPLETED');
      if (input.pull?.returnedAfterSeconds) {
        await sleep(input.pull.returnedAfterSeconds * 1000);
        await step(() => returnPulledPayment({ transactionId }), 'FAILED');
        return 'FAILED';
      }
      return 'COMPLETED';
    case 'EXECUTION_FAILS':
      cancellable = false;
      await fail('EXECUTION_FAILED');
      return 'FAILED';
    case 'DELIVERY_FAILS':
      if (await after(plan.afterSeconds)) return 'FAILED';
      await fail('DELIVERY_FAILED');
      return 'FAILED';
    case 'USER_CANCELLED':
      if (await after(plan.afterSeconds)) return 'FAILED';
      await fail('USER_CANCELLED');
      return 'FAILED';
    case 'PAYOUT_AND_REFUND_FAIL':
      if (await after(plan.afterSeconds)) return 'FAILED';
      await fail('PAYOUT_AND_REFUND_FAILED');
      return 'FAILED';
    case 'CANCELLED_WHILE_PROCESSING':
      if (await after(plan.refundedAfterSeconds)) return 'FAILED';
      await fail('CANCELLED_WHILE_PROCESSING');
      return 'FAILED';
    case 'RETURNED':
      if (await after(plan.afterSeconds)) return 'FAILED';
      await step(() => completeOutgoingPayment({ transactionId }), 'COMPLETED');
      await sleep(plan.returnedAfterSeconds * 1000);
      await step(() => returnOutgoingPayment({ transactionId }), 'FAILED');
      return 'FAILED';
  }
}

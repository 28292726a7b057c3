import { allHandlersFinished, ApplicationFailure, condition, proxyLocalActivities, setHandler, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
import type { PaymentActivities } from '../../activities/payments';
import { BusinessStatusKey } from '../../src/temporal/search-attributes';
import type { PayoutPlan } from '../../src/contexts/payments/domain/payout-scenarios';
import type { PullPlan } from '../../src/contexts/payments/domain/pull-scenarios';
import { deliverEvents } from '../webhooks/announce';
import { cancelPayoutUpdate, TRANSACTION_NOT_CANCELLABLE } from './definitions';

const { completeOutgoingPayment, failOutgoingPayment, returnOutgoingPayment, returnPulledPayment } = proxyLocalActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

type Event = { eventId: string; type: string };

export interface PaymentRun {
  transactionId: string;
  platformId: string;
  plan: PayoutPlan;
  pull?: PullPlan;
  /** The search attributes the payment's webhook deliveries carry. */
  attributes: SearchAttributePair[];
  /** Events recorded before the payment's first step (the execution's), delivered with that step's. */
  unannounced: Event[];
  /** First webhook attempts in a local activity (no activity task); older runs used an activity. */
  localDelivery: boolean;
  /** Mark the workflow PROCESSING (search attribute) when the rail keeps it waiting; older runs had the quote's workflow do it. */
  showWaiting?: boolean;
  /**
   * Let the workflow task end before the first step (one 1 ms timer): the execution's caller is
   * answered with the task that executed, the settlement and the webhooks come with the next.
   * The payment is cancellable from the start.
   */
  answerFirst?: boolean;
}

/**
 * A payment after its execution: for a pull-funded quote first the bank's answer to the pull,
 * then the simulated rail's answer for the destination — delays are durable timers — then
 * settlement (the hold leaves, fees to their accounts) or the refund of the hold, and for a
 * returned payout the refund of the settled amount, for a returned pull the credit taken back.
 * Each step is one database transaction with its webhook events. While the rail has not answered,
 * the platform may cancel (the cancel update). Returns how the payment ended.
 */
export async function runPayment(run: PaymentRun): Promise<'COMPLETED' | 'FAILED'> {
  const { plan, transactionId } = run;
  let unannounced = run.unannounced;
  const deliver = async (events: Event[]) => {
    const all = [...unannounced, ...events];
    unannounced = [];
    await deliverEvents(run.platformId, all, run.attributes, { local: run.localDelivery });
  };
  const step = async (perform: () => Promise<{ events: Event[] }>, status: string) => {
    const { events } = await perform();
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
        if (!cancellable)
          throw ApplicationFailure.create({
            type: TRANSACTION_NOT_CANCELLABLE,
            message: 'The transfer has been processed and can no longer be cancelled',
            nonRetryable: true,
          });
      },
    },
  );
  /** Waits for the rail; true when the platform cancelled meanwhile (the payout is then failed and refunded). */
  const after = async (seconds: number): Promise<boolean> => {
    // Waiting for the bank: the execution is announced now rather than after the wait.
    if (seconds > 0 && run.showWaiting) upsertSearchAttributes([{ key: BusinessStatusKey, value: 'PROCESSING' }]);
    if (seconds > 0 && unannounced.length > 0) await deliver([]);
    if (seconds > 0) await condition(() => cancelRequested, seconds * 1000);
    cancellable = false;
    if (!cancelRequested) return false;
    await fail('CANCELLED_BY_PLATFORM');
    cancelled = true;
    await condition(allHandlersFinished);
    return true;
  };

  if (run.answerFirst) await sleep(1);

  // The pull's answer comes first; runs without `pull` (every one before pulls existed) skip it.
  if (run.pull?.outcome === 'FAILS') {
    if (await after(run.pull.afterSeconds)) return 'FAILED';
    await fail('PULL_FAILED');
    return 'FAILED';
  }

  switch (plan.outcome) {
    case 'COMPLETES':
      if (await after(plan.afterSeconds)) return 'FAILED';
      await step(() => completeOutgoingPayment({ transactionId }), 'COMPLETED');
      if (run.pull?.returnedAfterSeconds) {
        await sleep(run.pull.returnedAfterSeconds * 1000);
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

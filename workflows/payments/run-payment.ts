import { allHandlersFinished, condition, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
import { BusinessStatusKey } from '../../src/temporal/search-attributes';
import type { PayoutPlan } from '../../src/contexts/payments/domain/payout-scenarios';
import type { PullPlan } from '../../src/contexts/payments/domain/pull-scenarios';
import { deliverEvents } from '../webhooks/announce';
import { completeOutgoingPayment, failOutgoingPayment, returnOutgoingPayment, returnPulledPayment } from './payment-activities';
import { handleCancellation, type Cancellation } from './payment-handlers';

type Event = { eventId: string; type: string };
type FailureKind = Parameters<typeof failOutgoingPayment>[0]['kind'];

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

/** The payouts the rail fails after its wait, and how each is recorded (the hold refunded). */
const FAILED_BY_THE_RAIL: Record<Exclude<PayoutPlan['outcome'], 'COMPLETES' | 'RETURNED' | 'EXECUTION_FAILS'>, FailureKind> = {
  DELIVERY_FAILS: 'DELIVERY_FAILED',
  USER_CANCELLED: 'USER_CANCELLED',
  PAYOUT_AND_REFUND_FAIL: 'PAYOUT_AND_REFUND_FAILED',
  CANCELLED_WHILE_PROCESSING: 'CANCELLED_WHILE_PROCESSING',
};

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
  const steps = paymentSteps(run);
  // While the rail has not answered (the waits below), the platform may cancel: the payout
  // fails and is refunded. Once the rail answered, it is too late.
  const cancellation: Cancellation = { cancellable: true, requested: false, done: false };
  handleCancellation(cancellation, transactionId);
  const railAnswers = (seconds: number) => awaitRail(run, steps, cancellation, seconds);

  if (run.answerFirst) await sleep(1);

  // The pull's answer comes first; runs without `pull` (every one before pulls existed) skip it.
  if (run.pull?.outcome === 'FAILS') {
    if ((await railAnswers(run.pull.afterSeconds)) === 'ANSWERED') await steps.fail('PULL_FAILED');
    return 'FAILED';
  }
  if (plan.outcome === 'EXECUTION_FAILS') {
    cancellation.cancellable = false;
    await steps.fail('EXECUTION_FAILED');
    return 'FAILED';
  }
  const wait = plan.outcome === 'CANCELLED_WHILE_PROCESSING' ? plan.refundedAfterSeconds : plan.afterSeconds;
  if ((await railAnswers(wait)) === 'CANCELLED') return 'FAILED';

  switch (plan.outcome) {
    case 'COMPLETES':
      await steps.complete();
      if (!run.pull?.returnedAfterSeconds) return 'COMPLETED';
      await sleep(run.pull.returnedAfterSeconds * 1000);
      await steps.returnPull();
      return 'FAILED';
    case 'RETURNED':
      await steps.complete();
      await sleep(plan.returnedAfterSeconds * 1000);
      await steps.returnPayout();
      return 'FAILED';
    default:
      await steps.fail(FAILED_BY_THE_RAIL[plan.outcome]);
      return 'FAILED';
  }
}

/**
 * Waits `seconds` for the rail (a durable timer): ANSWERED, or CANCELLED when the platform cancelled
 * meanwhile (the payout is then failed and refunded, and the cancel update answered).
 */
async function awaitRail(run: PaymentRun, steps: PaymentSteps, c: Cancellation, seconds: number): Promise<'ANSWERED' | 'CANCELLED'> {
  // Waiting for the bank: the execution is announced now rather than after the wait.
  if (seconds > 0 && run.showWaiting) upsertSearchAttributes([{ key: BusinessStatusKey, value: 'PROCESSING' }]);
  if (seconds > 0 && steps.unannounced() > 0) await steps.deliver([]);
  if (seconds > 0) await condition(() => c.requested, seconds * 1000);
  c.cancellable = false;
  if (!c.requested) return 'ANSWERED';
  await steps.fail('CANCELLED_BY_PLATFORM');
  c.done = true;
  await condition(allHandlersFinished);
  return 'CANCELLED';
}

type PaymentSteps = ReturnType<typeof paymentSteps>;

/**
 * The run's steps, each one database transaction (a local activity) followed by its status and
 * webhooks; the execution's events not yet delivered go out with the first delivery.
 */
function paymentSteps(run: PaymentRun) {
  const { transactionId } = run;
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
  return {
    deliver,
    unannounced: () => unannounced.length,
    complete: () => step(() => completeOutgoingPayment({ transactionId }), 'COMPLETED'),
    fail: (kind: FailureKind) => step(() => failOutgoingPayment({ transactionId, kind }), 'FAILED'),
    returnPayout: () => step(() => returnOutgoingPayment({ transactionId }), 'FAILED'),
    returnPull: () => step(() => returnPulledPayment({ transactionId }), 'FAILED'),
  };
}

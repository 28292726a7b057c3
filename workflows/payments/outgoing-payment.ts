import { proxyLocalActivities, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { PaymentActivities } from '../../activities/payments';
import { BusinessStatusKey, CustomerIdKey, QuoteIdKey, TransactionIdKey } from '../../src/temporal/search-attributes';
import { deliverEvents } from '../webhooks/announce';
import type { OutgoingPaymentInput } from '../definitions';

const { completeOutgoingPayment, failOutgoingPayment, returnOutgoingPayment } = proxyLocalActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * An outgoing payment after its funds are held (workflow id = transaction id): the simulated
 * rail's answer for the destination — delays are durable timers — then settlement (the hold
 * leaves, fees to their accounts) or the refund of the hold, and for a returned payout the
 * refund of the settled amount. Each step is one database transaction with its webhook events.
 */
export async function outgoingPayment(input: OutgoingPaymentInput): Promise<string> {
  const { plan, transactionId } = input;
  const step = async (run: () => Promise<{ events: { eventId: string; type: string }[] }>, status: string) => {
    const { events } = await run();
    upsertSearchAttributes([{ key: BusinessStatusKey, value: status }]);
    await deliverEvents(input.platformId, events, [
      { key: TransactionIdKey, value: transactionId },
      { key: QuoteIdKey, value: input.quoteId },
      ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
    ]);
  };
  const fail = (kind: Parameters<typeof failOutgoingPayment>[0]['kind']) => step(() => failOutgoingPayment({ transactionId, kind }), 'FAILED');
  const after = async (seconds: number) => {
    if (seconds > 0) await sleep(seconds * 1000);
  };

  switch (plan.outcome) {
    case 'COMPLETES':
      await after(plan.afterSeconds);
      await step(() => completeOutgoingPayment({ transactionId }), 'COMPLETED');
      return 'COMPLETED';
    case 'EXECUTION_FAILS':
      await fail('EXECUTION_FAILED');
      return 'FAILED';
    case 'DELIVERY_FAILS':
      await after(plan.afterSeconds);
      await fail('DELIVERY_FAILED');
      return 'FAILED';
    case 'USER_CANCELLED':
      await after(plan.afterSeconds);
      await fail('USER_CANCELLED');
      return 'FAILED';
    case 'PAYOUT_AND_REFUND_FAIL':
      await after(plan.afterSeconds);
      await fail('PAYOUT_AND_REFUND_FAILED');
      return 'FAILED';
    case 'CANCELLED_WHILE_PROCESSING':
      await after(plan.refundedAfterSeconds);
      await fail('CANCELLED_WHILE_PROCESSING');
      return 'FAILED';
    case 'RETURNED':
      await after(plan.afterSeconds);
      await step(() => completeOutgoingPayment({ transactionId }), 'COMPLETED');
      await sleep(plan.returnedAfterSeconds * 1000);
      await step(() => returnOutgoingPayment({ transactionId }), 'FAILED');
      return 'FAILED';
  }
}

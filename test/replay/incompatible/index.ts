// Deliberately incompatible versions of the workflows, for the replay test: the same names and
// inputs, but commands issued in a different order than the recorded histories.
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../../activities';
import type { IncomingPaymentInput, WebhookDeliveryInput } from '../../../workflows/definitions';

const acts = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds' });

/** Settles before recording the transaction: swaps the first two activities. */
export async function incomingPayment(input: IncomingPaymentInput): Promise<void> {
  await acts.settleIncomingPayment({ transactionId: input.transactionId });
  await acts.createIncomingTransaction(input);
}

/** Waits before the first attempt: a timer where the history has an activity. */
export async function webhookDelivery(input: WebhookDeliveryInput): Promise<void> {
  await sleep('1 second');
  await acts.deliverWebhook({ eventId: input.eventId });
}

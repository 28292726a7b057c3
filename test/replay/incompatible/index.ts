// Deliberately incompatible versions of the workflows, for the replay test: the same names and
// inputs, but commands issued in a different order than the recorded histories.
import { condition, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../../activities';
import { submitVerification, type CustomerVerificationInput, type IncomingPaymentInput, type VerificationSnapshot, type WebhookDeliveryInput } from '../../../workflows/definitions';

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

/** Waits before evaluating a submission: a timer where the history has the evaluation activity. */
export async function customerVerification(input: CustomerVerificationInput): Promise<void> {
  let submissions = 0;
  setHandler(submitVerification, async () => {
    await sleep('1 second');
    submissions += 1;
    const result = await acts.evaluateVerificationSubmission({ ...input, submissionKey: `${workflowInfo().runId}:${submissions}` });
    return result.verification as VerificationSnapshot;
  });
  await condition(() => false, '30 days');
}

import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { RetryPolicy } from '@temporalio/common';
import type { PaymentActivities } from '../../activities/payments';
import type { TransactionStatus } from '../../src/contexts/payments/domain/transaction-state';
import { ERROR } from '../../src/domain/errors';
import { BusinessStatusKey, CustomerIdKey, TransactionIdKey } from '../../src/temporal/search-attributes';
import { announceEvents, deliverEvents } from '../webhooks/announce';
import { incomingPaymentPosted, incomingPaymentStatusQuery, type IncomingPaymentInput, type IncomingPaymentResult } from './definitions';
import { asApplicationFailure } from '../update-failures';

const retry: RetryPolicy = {
  initialInterval: '1 second',
  maximumInterval: '30 seconds',
  nonRetryableErrorTypes: [ERROR.ACCOUNT_NOT_FOUND, ERROR.INSUFFICIENT_FUNDS],
};

// Short database work runs as a local activity: no activity task round trip through the server.
const { postIncomingPayment } = proxyLocalActivities<PaymentActivities>({ startToCloseTimeout: '30 seconds', retry });

// Version 1's three steps, kept for runs that started before the single posting step.
const { createIncomingTransaction, settleIncomingPayment, recordIncomingPaymentEvents } = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry,
});

/** Marks runs that post in one local activity, deliver their own webhooks and answer an update. */
export const POSTING_IN_ONE_STEP = 'posting-in-one-step';
/** Marks runs whose first webhook attempts are an ordinary activity, after the answer. */
export const WEBHOOKS_AFTER_ANSWER = 'webhooks-after-answer';

/**
 * An incoming payment to an internal account (workflow id = the transaction id). The money is
 * posted in one database transaction (the PENDING row, the policy check, the ledger entry, the
 * final status and the webhook events); the `posted` update answers the caller right then, and
 * the workflow goes on to deliver the events, handing any the receiver refuses to a retrying
 * webhookDelivery workflow. A payment refused by the money-movement policy is FAILED, announced,
 * and the update fails with the refusal's code.
 */
export async function incomingPayment(input: IncomingPaymentInput): Promise<IncomingPaymentResult> {
  if (!patched(POSTING_IN_ONE_STEP)) return incomingPaymentV1(input);

  let status: TransactionStatus = 'PENDING';
  let answer: IncomingPaymentResult | ApplicationFailure | undefined;
  setHandler(incomingPaymentStatusQuery, () => status);
  setHandler(incomingPaymentPosted, async () => {
    await condition(() => answer !== undefined);
    if (answer instanceof ApplicationFailure) throw answer;
    return answer!;
  });

  let posted: Awaited<ReturnType<typeof postIncomingPayment>>;
  try {
    posted = await postIncomingPayment(input);
  } catch (err) {
    // Refused before anything was recorded (an unknown account): nothing to announce.
    answer = asApplicationFailure(err);
    await condition(allHandlersFinished);
    throw answer;
  }
  status = posted.status;
  upsertSearchAttributes([{ key: BusinessStatusKey, value: status }]);
  const result: IncomingPaymentResult = {
    transactionId: input.transactionId,
    status,
    webhookEventIds: posted.events.map((e) => e.eventId),
    ...(posted.refusal ? { refusal: posted.refusal } : {}),
  };
  answer = posted.refusal ? ApplicationFailure.create({ message: posted.refusal.message, type: posted.refusal.code, nonRetryable: true }) : result;

  await deliverEvents(input.platformId, posted.events, paymentAttributes(input), { local: !patched(WEBHOOKS_AFTER_ANSWER) });
  await condition(allHandlersFinished);
  return result;
}

/** Version 1: three activities, then one webhookDelivery workflow per event. */
async function incomingPaymentV1(input: IncomingPaymentInput): Promise<IncomingPaymentResult> {
  let status: TransactionStatus = 'PENDING';
  setHandler(incomingPaymentStatusQuery, () => status);

  await createIncomingTransaction(input);
  await settleIncomingPayment({ transactionId: input.transactionId });
  status = 'COMPLETED';
  upsertSearchAttributes([{ key: BusinessStatusKey, value: status }]);

  const events = await recordIncomingPaymentEvents({ transactionId: input.transactionId, environment: input.environment });
  await announceEvents(input.platformId, events, paymentAttributes(input));
  return { transactionId: input.transactionId, status, webhookEventIds: events.map((e) => e.eventId) };
}

function paymentAttributes(input: IncomingPaymentInput) {
  return [{ key: TransactionIdKey, value: input.transactionId }, ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : [])];
}

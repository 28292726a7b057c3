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
import type { WebhookActivities } from '../../activities/webhooks';
import type { TransactionStatus } from '../../src/contexts/payments/domain/transaction-state';
import { ERROR } from '../../src/domain/errors';
import { BusinessStatusKey, CustomerIdKey, TransactionIdKey } from '../../src/temporal/search-attributes';
import { announceEvents, deliverEvents } from '../webhooks/announce';
import {
  approvalAnswerOf,
  INCOMING_APPROVAL_WINDOW_MS,
  type ApprovalAnswer,
  type IncomingPaymentDecision,
} from '../../src/contexts/payments/domain/incoming-approval';
import {
  decideIncomingPaymentUpdate,
  incomingPaymentPosted,
  incomingPaymentStatusQuery,
  type IncomingPaymentInput,
  type IncomingPaymentResult,
  type PlatformDecision,
} from './definitions';
import { asApplicationFailure } from '../update-failures';

const retry: RetryPolicy = {
  initialInterval: '1 second',
  maximumInterval: '30 seconds',
  nonRetryableErrorTypes: [ERROR.ACCOUNT_NOT_FOUND, ERROR.INSUFFICIENT_FUNDS],
};

// Short database work runs as a local activity: no activity task round trip through the server.
const { postIncomingPayment, recordIncomingPaymentPending, concludeIncomingPayment } = proxyLocalActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry,
});

// The approval call is made once and never retried (the reference's rule for a PENDING incoming
// payment): a failed attempt is the platform's webhook error. Its HTTP time-out is shorter.
const { callApprovalWebhook } = proxyActivities<WebhookActivities>({ startToCloseTimeout: '15 seconds', retry: { maximumAttempts: 1 } });

// Version 1's three steps, kept for runs that started before the single posting step.
const { createIncomingTransaction, settleIncomingPayment, recordIncomingPaymentEvents } = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry,
});

/** Marks runs that post in one local activity, deliver their own webhooks and answer an update. */
export const POSTING_IN_ONE_STEP = 'posting-in-one-step';
/** Marks runs whose first webhook attempts are an ordinary activity, after the answer. */
export const WEBHOOKS_AFTER_ANSWER = 'webhooks-after-answer';
/** Marks runs in which a UMA payment is approved by its platform first (the INCOMING_PAYMENT.PENDING call). */
export const PLATFORM_APPROVAL = 'platform-approval';

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
  // Only UMA payments wait for the platform: sandbox funding and bank-rail deposits are informational.
  if (input.source.sourceType === 'UMA_ADDRESS' && patched(PLATFORM_APPROVAL)) return incomingPaymentApprovedFirst(input);

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

/**
 * A UMA payment: recorded PENDING, then the platform is asked (INCOMING_PAYMENT.PENDING, one
 * attempt) and its answer decides: approved, the money is posted; rejected or failed, nothing
 * moves. The `posted` update answers the caller once the platform answered: with the outcome, or
 * PENDING when it deferred (202). A deferred payment waits on a durable timer for the platform's
 * decision (POST /transactions/{id}/approve or /reject: the `decideIncomingPayment` update) and
 * fails PAYMENT_APPROVAL_TIMED_OUT when none comes in time. A decision is accepted from the
 * moment the platform is asked (it may answer 202 and decide before its answer reaches us)
 * until one is taken; an answer other than 202 takes precedence over a decision sent meanwhile.
 */
async function incomingPaymentApprovedFirst(input: IncomingPaymentInput): Promise<IncomingPaymentResult> {
  let status: TransactionStatus = 'PENDING';
  let answer: IncomingPaymentResult | ApplicationFailure | undefined;
  let acceptingDecision = false;
  let platformDecision: PlatformDecision | undefined;
  // Set once the decision is carried out: what a decision update answers.
  let concluded: IncomingPaymentResult | undefined = undefined;
  setHandler(incomingPaymentStatusQuery, () => status);
  setHandler(incomingPaymentPosted, async () => {
    await condition(() => answer !== undefined);
    if (answer instanceof ApplicationFailure) throw answer;
    return answer!;
  });
  setHandler(
    decideIncomingPaymentUpdate,
    async (decision) => {
      // Taken at once, in the handler's first step: a second decision finds none awaited.
      platformDecision = decision;
      acceptingDecision = false;
      await condition(() => concluded !== undefined);
      return concluded!;
    },
    {
      validator: (_decision: PlatformDecision) => {
        if (!acceptingDecision) {
          throw ApplicationFailure.create({
            type: ERROR.TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL,
            message: 'The transaction is not waiting for the platform to approve or reject it',
            nonRetryable: true,
          });
        }
      },
    },
  );

  let pending: { eventId: string };
  try {
    pending = await recordIncomingPaymentPending(input);
  } catch (err) {
    // Refused before anything was recorded (an unknown account): nothing to announce.
    answer = asApplicationFailure(err);
    await condition(allHandlersFinished);
    throw answer;
  }

  acceptingDecision = true;
  const asked = await askPlatform(pending.eventId);
  let decision: IncomingPaymentDecision;
  if (asked.decision === 'DEFER') {
    answer = { transactionId: input.transactionId, status, webhookEventIds: [pending.eventId] };
    const decided =
      platformDecision !== undefined || (await condition(() => platformDecision !== undefined, input.approvalWindowMs ?? INCOMING_APPROVAL_WINDOW_MS));
    decision = decided ? platformDecision! : { decision: 'FAIL', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' };
  } else {
    decision = asked;
  }
  acceptingDecision = false;

  const posted = await concludeIncomingPayment({ payment: input, decision });
  status = posted.status;
  upsertSearchAttributes([{ key: BusinessStatusKey, value: status }]);
  const result: IncomingPaymentResult = {
    transactionId: input.transactionId,
    status,
    webhookEventIds: [pending.eventId, ...posted.events.map((e) => e.eventId)],
    ...(posted.refusal ? { refusal: posted.refusal } : {}),
  };
  concluded = result;
  answer ??= posted.refusal ? ApplicationFailure.create({ message: posted.refusal.message, type: posted.refusal.code, nonRetryable: true }) : result;

  await deliverEvents(input.platformId, posted.events, paymentAttributes(input));
  await condition(allHandlersFinished);
  return result;
}

/** The platform's answer to the approval call; a platform without an endpoint has no one to ask, and approves. */
async function askPlatform(eventId: string): Promise<ApprovalAnswer> {
  try {
    const answered = await callApprovalWebhook({ eventId });
    return answered.noEndpoint ? { decision: 'APPROVE' } : approvalAnswerOf(answered.status, answered.body);
  } catch {
    return { decision: 'FAIL', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' };
  }
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

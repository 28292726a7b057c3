import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { TransactionStatus } from '../../src/contexts/payments/domain/transaction-state';
import type { PayoutPlan } from '../../src/contexts/payments/domain/payout-scenarios';
import type { PullPlan } from '../../src/contexts/payments/domain/pull-scenarios';
import type { IncomingPaymentDecision } from '../../src/contexts/payments/domain/incoming-approval';
import type { WorkflowKind } from '../../src/temporal/workflow-kind';

/** Inputs, results, queries and updates of the payments workflows, shared with the API that starts them. */

export interface IncomingPaymentInput {
  transactionId: string;
  platformId: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  customerId: string | null;
  internalAccountId: string;
  currency: string;
  /** Integer in the smallest unit, as a decimal string (Temporal payloads are JSON). */
  amount: string;
  source: { sourceType: 'SANDBOX_FUNDING' } | { sourceType: 'ACCOUNT'; accountId: string } | { sourceType: 'UMA_ADDRESS'; umaAddress: string };
  /**
   * A UMA payment the platform's webhook deferred (202) waits this long for POST
   * /transactions/{id}/approve or /reject (INCOMING_APPROVAL_WINDOW_MS when absent).
   */
  approvalWindowMs?: number;
}

export interface IncomingPaymentResult {
  transactionId: string;
  status: TransactionStatus;
  webhookEventIds: string[];
  /** Why the payment was refused (status FAILED): an error code and its message. */
  refusal?: { code: string; message: string };
}

export const incomingPaymentStatusQuery = defineQuery<TransactionStatus>('status');

/** What the single posting step of an incoming payment did (see postIncomingPayment). */
export interface PostedPayment {
  transactionId: string;
  status: TransactionStatus;
  events: { eventId: string; type: string }[];
  /** Set when the money-movement policy refused the payment: the transaction is FAILED. */
  refusal?: { code: string; message: string };
}

/**
 * Answered as soon as the money is posted (or refused), while the workflow goes on to announce
 * the payment: the API sends it with the workflow's start (update-with-start) and replies to
 * the caller without waiting for webhook delivery.
 */
export const incomingPaymentPosted = defineUpdate<IncomingPaymentResult, []>('posted');

/**
 * The platform's decision on a UMA payment its webhook deferred with 202 (POST
 * /transactions/{id}/approve or /reject). Refused with TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL
 * unless the payment waits for it; answered once the decision is carried out (the update id is
 * the request's key, so a retried request is the same decision).
 */
export type PlatformDecision = Extract<IncomingPaymentDecision, { decision: 'APPROVE' | 'REJECT' }>;
export const decideIncomingPaymentUpdate = defineUpdate<IncomingPaymentResult, [PlatformDecision]>('decideIncomingPayment');

export interface QuoteInput {
  /** Also the workflow id. */
  quoteId: string;
  transactionId: string;
  platformId: string;
  customerId: string | null;
  environment: 'SANDBOX' | 'PRODUCTION';
  /** How long the quote may be executed (a durable timer; expiresAt is stamped in the database). */
  lifetimeSeconds: number;
}

export interface QuoteExecution {
  transactionId: string;
  /**
   * True when an earlier request had executed (or funded) the quote already: this one changed
   * nothing. The execute route answers it 409, as the reference does for an executed quote.
   */
  repeat?: boolean;
}

/** POST /quotes/{id}/execute: answered with the transaction once the funds are held. */
export const executeQuoteUpdate = defineUpdate<QuoteExecution, []>('execute');
/** A real-time-funded quote's money arrived (sandbox: POST /sandbox/send); amount in minor units as a decimal string. */
export const fundQuoteUpdate = defineUpdate<QuoteExecution, [{ amount: string }]>('fund');

export interface OutgoingPaymentInput {
  /** Also the workflow id. */
  transactionId: string;
  quoteId: string;
  platformId: string;
  customerId: string | null;
  plan: PayoutPlan;
  /** Present when the money is pulled from the customer's external account: the bank's answer to the pull. */
  pull?: PullPlan;
  /**
   * The execution's webhook events (PROCESSING, the payer's balance), recorded by the quote's
   * workflow for this one to deliver, with its first step's. Runs started without it deliver
   * their own step's events through an activity, as before.
   */
  announce?: { eventId: string; type: string }[];
}

/**
 * POST /transactions/{id}/cancel: stops a payout the bank has not settled yet. Answered once the
 * payment is FAILED and its funds refunded; refused (TRANSACTION_NOT_CANCELLABLE) once settled.
 */
export const cancelPayoutUpdate = defineUpdate<{ transactionId: string }, [{ reason?: string }]>('cancel');
export const TRANSACTION_NOT_CANCELLABLE = 'TRANSACTION_NOT_CANCELLABLE';

/** A payment's workflow starts with its quote: the quote id, the transaction id (= workflow id) and the quote's lifetime. */
export type PaymentInput = QuoteInput;

/** What an execution (or an approval of its hold) answers. */
export interface PaymentExecution {
  transactionId: string;
  /** True when another request had executed (or funded) the quote: this one changed nothing (the execute route answers 409). */
  repeat?: boolean;
  /** Set while a gate holds the payment: which gate, the status the quote shows, and until when it waits. */
  held?: { gate: string; status: 'PENDING_AUTHORIZATION' | 'PENDING'; expiresAt: string };
}

/**
 * POST /quotes/{id}/execute: answered once the funds are held (or a gate holds the payment). The
 * update id is the request's key, so Temporal answers a retry of the request with its first answer.
 * `approved` names the gates the request's own proof satisfies (an embedded wallet's stamp over
 * the quote, checked by the API): they pass as if their hold had been approved.
 */
export const executePaymentUpdate = defineUpdate<PaymentExecution, [{ requestKey: string; approved?: string[] }]>('execute');

/**
 * The decision a held payment waits for: approved, it runs its execution again; rejected, it fails
 * (with `failureReason` on the transaction when given). `reason` is the decider's words, handed to
 * the holding gate; `failed` says the rejection ends an approval whose execution was refused.
 */
export interface HoldDecisionRequest {
  gate: string;
  decision: 'APPROVE' | 'REJECT';
  reason?: string;
  failureReason?: string;
  failed?: boolean;
}
export const decideHoldUpdate = defineUpdate<PaymentExecution, [HoldDecisionRequest]>('decideHold');

/**
 * A hold's decision delivered by another workflow (an SCA challenge's outcome): APPROVE runs the
 * held execution again with that gate passing, REJECT fails the payment with `failureReason`.
 * A REJECT also ends a quote that waits for its authorization without an execution (a real-time
 * quote challenged at creation). A decision for a gate that does not hold the payment changes nothing.
 */
export interface HoldDecision {
  gate: string;
  decision: 'APPROVE' | 'REJECT';
  failureReason?: string;
}
export const holdDecidedSignal = defineSignal<[HoldDecision]>('holdDecided');

/** The payment workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). */
export const PAYMENT_WORKFLOW: WorkflowKind<'payment', (input: PaymentInput) => Promise<string>> = {
  type: 'payment',
  taskQueue: 'payments',
  versioning: 'PINNED',
};

/** The incomingPayment workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). */
export const INCOMING_PAYMENT_WORKFLOW: WorkflowKind<'incomingPayment', (input: IncomingPaymentInput) => Promise<IncomingPaymentResult>> = {
  type: 'incomingPayment',
  taskQueue: 'payments',
  versioning: 'PINNED',
};

/** The quote workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). Retired: kept while histories that may still be open need it. */
export const QUOTE_WORKFLOW: WorkflowKind<'quote', (input: QuoteInput) => Promise<string>> = { type: 'quote', taskQueue: 'payments', versioning: 'PINNED' };

/** The outgoingPayment workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). Retired: kept while histories that may still be open need it. */
export const OUTGOING_PAYMENT_WORKFLOW: WorkflowKind<'outgoingPayment', (input: OutgoingPaymentInput) => Promise<string>> = {
  type: 'outgoingPayment',
  taskQueue: 'payments',
  versioning: 'PINNED',
};

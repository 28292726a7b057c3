import { defineUpdate } from '@temporalio/workflow';
import type { QuoteInput } from '../definitions';

/** Inputs and updates of the payment workflow, shared with the API that starts it. */

/** A payment's workflow starts with its quote: the quote id, the transaction id (= workflow id) and the quote's lifetime. */
export type PaymentInput = QuoteInput;

/** What an execution (or an approval of its hold) answers. */
export interface PaymentExecution {
  transactionId: string;
  /** True when another request had executed (or funded) the quote: this one changed nothing (the execute route answers 409). */
  repeat?: boolean;
  /** Set while a gate holds the payment: which gate, the status the quote shows, and until when it waits. */
  held?: { gate: string; status: 'PENDING_AUTHORIZATION'; expiresAt: string };
}

/**
 * POST /quotes/{id}/execute: answered once the funds are held (or a gate holds the payment). The
 * update id is the request's key, so Temporal answers a retry of the request with its first answer.
 */
export const executePaymentUpdate = defineUpdate<PaymentExecution, [{ requestKey: string }]>('execute');

/** The decision a held payment waits for: approved, it runs its execution again; rejected, it fails. */
export const decideHoldUpdate = defineUpdate<PaymentExecution, [{ gate: string; decision: 'APPROVE' | 'REJECT' }]>('decideHold');

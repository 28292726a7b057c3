import type { TransactionType } from './transaction-state';

/** How a payment ended; RETURNED is a completed payment the bank sent back. */
export type PaymentOutcome = 'COMPLETED' | 'FAILED' | 'RETURNED';

/**
 * Reported by the one step that ended the payment, never by a repeat of it (a retried activity
 * finds the work done and reports nothing), so each ending is counted once.
 */
export interface FinishedPayment {
  type: TransactionType;
  outcome: PaymentOutcome;
}

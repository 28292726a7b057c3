export type TransactionType = 'INCOMING' | 'OUTGOING';
export type TransactionStatus = 'CREATED' | 'PENDING' | 'PENDING_AUTHORIZATION' | 'PROCESSING' | 'COMPLETED' | 'REJECTED' | 'FAILED' | 'REFUNDED' | 'EXPIRED';

/** Allowed status moves of a transaction. COMPLETED -> FAILED is a bank return (spec §3). */
const NEXT: Record<TransactionStatus, readonly TransactionStatus[]> = {
  CREATED: ['PENDING', 'PROCESSING', 'FAILED', 'EXPIRED'],
  // PENDING_AUTHORIZATION: an execution gate holds the payment until its decision.
  PENDING: ['PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'REJECTED', 'EXPIRED'],
  PENDING_AUTHORIZATION: ['PENDING', 'PROCESSING', 'FAILED', 'EXPIRED'],
  PROCESSING: ['COMPLETED', 'FAILED'],
  COMPLETED: ['FAILED', 'REFUNDED'],
  REJECTED: [],
  FAILED: ['REFUNDED'],
  REFUNDED: [],
  EXPIRED: [],
};

export function canTransition(from: TransactionStatus, to: TransactionStatus): boolean {
  return NEXT[from].includes(to);
}

export function assertTransition(from: TransactionStatus, to: TransactionStatus): void {
  if (!canTransition(from, to)) throw new Error(`transaction cannot move from ${from} to ${to}`);
}

/**
 * The webhook type announcing that an incoming payment reached `status`, if any. The catalogue
 * has no INCOMING_PAYMENT.REJECTED: a payment the platform rejected is announced as FAILED, its
 * data showing status REJECTED.
 */
export function incomingPaymentEventType(status: TransactionStatus): string | null {
  if (status === 'REJECTED') return 'INCOMING_PAYMENT.FAILED';
  return status === 'COMPLETED' || status === 'FAILED' || status === 'PENDING' ? `INCOMING_PAYMENT.${status}` : null;
}

/** Bank rails whose transfers a bank can still recall before settlement. */
export const CANCELLABLE_RAILS: ReadonlySet<string> = new Set(['ACH', 'WIRE', 'SWIFT']);

/**
 * Whether a cancellation may be asked of a transaction: a bank transfer out, or a pull from the
 * customer's bank (ACH pull). Whether the bank has answered is the workflow's to say, not this rule's.
 */
export function mayAskToCancel(t: { type: TransactionType; paymentRail?: string | null; sourceAccountId: string }): boolean {
  const pull = t.sourceAccountId.startsWith('ExternalAccount:');
  return pull || (t.type === 'OUTGOING' && CANCELLABLE_RAILS.has(t.paymentRail ?? ''));
}

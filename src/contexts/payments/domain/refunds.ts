import { derivedId } from '../../../domain/ids';
import type { RefundState } from '../entities/Transaction';

/**
 * A refund that begins and ends in one step (the sandbox's rails settle it at once): its reference
 * derives from the payment, so a repeated step writes the same one; settled only when COMPLETED.
 */
export function refundInOneStep(transactionId: string, status: 'COMPLETED' | 'FAILED', reason: RefundState['reason'], now: Date): RefundState {
  const at = now.toISOString();
  return {
    reference: derivedId('Transaction', transactionId, 'refund').split(':')[1]!,
    initiatedAt: at,
    ...(status === 'COMPLETED' ? { settledAt: at } : {}),
    status,
    reason,
  };
}

/**
 * A transaction as its REFUND_PENDING announces it: the refund initiated and not settled yet (the
 * reference's sequence is FAILED → REFUND_PENDING → REFUND_COMPLETED | REFUND_FAILED, for incoming
 * and outgoing payments alike).
 */
export function refundBegun<T>(view: T): T {
  const { refund } = view as { refund?: { settledAt?: string } | null };
  if (!refund) return view;
  const { settledAt: _settled, ...begun } = refund;
  return { ...view, refund: { ...begun, status: 'PENDING' } };
}

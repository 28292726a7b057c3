/**
 * The platform's approval of an incoming UMA payment (reference: the incoming-payment webhook's
 * "Payment Approval Flow"). The service posts INCOMING_PAYMENT.PENDING to the platform's webhook
 * endpoint once, never retried, and the answer decides:
 *   200 approve (the body may carry `receiverCustomerInfo`), 403 reject (the body may carry a
 *   `reason`), 422 more counterparty information needed (FAILED MISSING_MANDATORY_PAYEE_DATA),
 *   202 defer: the platform approves or rejects with POST /transactions/{id}/approve or /reject
 *   within the window, or the payment fails PAYMENT_APPROVAL_TIMED_OUT. Anything else (no answer,
 *   another status) is PAYMENT_APPROVAL_WEBHOOK_ERROR.
 * Plain data and pure functions: the payment's workflow and its activities share them.
 */

/** How long a payment deferred with 202 waits for the platform's decision (the reference's 5 seconds). */
export const INCOMING_APPROVAL_WINDOW_MS = 5_000;

export type IncomingPaymentFailure = 'PAYMENT_APPROVAL_WEBHOOK_ERROR' | 'PAYMENT_APPROVAL_TIMED_OUT' | 'MISSING_MANDATORY_PAYEE_DATA';

/** A decision on an incoming payment, by the webhook's answer or by the approve / reject routes. */
export type IncomingPaymentDecision =
  | { decision: 'APPROVE'; receiverCustomerInfo?: Record<string, unknown> }
  | { decision: 'REJECT'; reason?: string }
  | { decision: 'FAIL'; failureReason: IncomingPaymentFailure };

/** What the approval call came back with: a decision, or DEFER (202: the platform decides later). */
export type ApprovalAnswer = IncomingPaymentDecision | { decision: 'DEFER' };

/** The decision the platform's HTTP answer stands for (`status` null: no HTTP answer at all). */
export function approvalAnswerOf(status: number | null, body: string): ApprovalAnswer {
  const parsed = jsonObject(body);
  switch (status) {
    case 200: {
      const info = parsed?.receiverCustomerInfo;
      return isObject(info) ? { decision: 'APPROVE', receiverCustomerInfo: info } : { decision: 'APPROVE' };
    }
    case 202:
      return { decision: 'DEFER' };
    case 403: {
      const reason = parsed?.reason;
      return typeof reason === 'string' && reason.length > 0 ? { decision: 'REJECT', reason: reason.slice(0, 255) } : { decision: 'REJECT' };
    }
    case 422:
      return { decision: 'FAIL', failureReason: 'MISSING_MANDATORY_PAYEE_DATA' };
    default:
      return { decision: 'FAIL', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' };
  }
}

/** The status an incoming payment ends in once decided (an approval may still fail the money-movement policy). */
export function refusedStatusOf(decision: Exclude<IncomingPaymentDecision, { decision: 'APPROVE' }>): 'REJECTED' | 'FAILED' {
  return decision.decision === 'REJECT' ? 'REJECTED' : 'FAILED';
}

function jsonObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What becomes of an approved UMA payment in the sandbox, by the last three characters of the
 * sender's user name (between `$` and `@`): 006, the receiving side cannot credit it (its
 * conversion fails: OFFRAMP_FAILED) and the money goes back to the sender; 007, and that refund
 * fails too. Anything else, and every production payment, is credited.
 */
export type ApprovedIncomingOutcome = 'CREDITED' | 'REFUNDED' | 'REFUND_FAILED';

export function approvedIncomingOutcome(environment: 'SANDBOX' | 'PRODUCTION', senderUmaAddress: unknown): ApprovedIncomingOutcome {
  if (environment !== 'SANDBOX' || typeof senderUmaAddress !== 'string') return 'CREDITED';
  const user = senderUmaAddress.replace(/^\$/, '').split('@')[0] ?? '';
  switch (user.slice(-3)) {
    case '006':
      return 'REFUNDED';
    case '007':
      return 'REFUND_FAILED';
    default:
      return 'CREDITED';
  }
}

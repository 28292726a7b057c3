import { approvalAnswerOf } from '../../src/contexts/payments/domain/incoming-approval';

describe("approvalAnswerOf: the platform's answer to INCOMING_PAYMENT.PENDING", () => {
  test('200 approves, with receiverCustomerInfo when the body carries an object of it', () => {
    expect(approvalAnswerOf(200, JSON.stringify({ receiverCustomerInfo: { FULL_NAME: 'Bob' } }))).toEqual({
      decision: 'APPROVE',
      receiverCustomerInfo: { FULL_NAME: 'Bob' },
    });
    expect(approvalAnswerOf(200, 'ok')).toEqual({ decision: 'APPROVE' });
    expect(approvalAnswerOf(200, JSON.stringify({ receiverCustomerInfo: ['not', 'an', 'object'] }))).toEqual({ decision: 'APPROVE' });
  });

  test('202 defers, 403 rejects (with its reason), 422 fails MISSING_MANDATORY_PAYEE_DATA', () => {
    expect(approvalAnswerOf(202, '')).toEqual({ decision: 'DEFER' });
    expect(approvalAnswerOf(403, JSON.stringify({ code: 'X', message: 'no', reason: 'RESTRICTED_JURISDICTION' }))).toEqual({
      decision: 'REJECT',
      reason: 'RESTRICTED_JURISDICTION',
    });
    expect(approvalAnswerOf(403, 'nope')).toEqual({ decision: 'REJECT' });
    expect(approvalAnswerOf(422, JSON.stringify({ requiredFields: ['TAX_ID'] }))).toEqual({ decision: 'FAIL', failureReason: 'MISSING_MANDATORY_PAYEE_DATA' });
  });

  test('no answer, or any other status, is the webhook error', () => {
    for (const status of [null, 201, 204, 301, 400, 401, 404, 409, 500, 503]) {
      expect(approvalAnswerOf(status, '')).toEqual({ decision: 'FAIL', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' });
    }
  });
});

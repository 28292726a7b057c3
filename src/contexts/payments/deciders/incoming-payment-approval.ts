import type { TransactionDecider } from '../../../domain/transaction-decider-contract';
import { decideIncomingPayment } from '../starters/incoming-payment';
import { Transaction } from '../entities';

/**
 * A UMA payment whose platform is asked to approve it (INCOMING_PAYMENT.PENDING, answered 202):
 * its workflow waits for POST /transactions/{id}/approve or /reject. The workflow is the judge of
 * whether it still waits (it refuses a decision once one is taken or the window closed: 409);
 * this only says which transactions are of its kind.
 */
export const incomingPaymentApproval: TransactionDecider = {
  name: 'incoming-payment-approval',
  async waitsFor(em, transaction) {
    if (transaction.type !== 'INCOMING' || transaction.status !== 'PENDING') return false;
    const row = await em.findOne(Transaction, { id: transaction.id });
    return row?.source.sourceType === 'UMA_ADDRESS';
  },
  async approve({ temporal, transaction, decisionKey }, body) {
    const info = body.receiverCustomerInfo;
    await decideIncomingPayment(temporal, transaction.id, { decision: 'APPROVE', ...(info ? { receiverCustomerInfo: info } : {}) }, decisionKey);
  },
  async reject({ temporal, transaction, decisionKey }, body) {
    await decideIncomingPayment(temporal, transaction.id, { decision: 'REJECT', ...(body.reason ? { reason: body.reason } : {}) }, decisionKey);
  },
};

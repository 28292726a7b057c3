import type { ExecutionGate } from '../../../domain/execution-gate-contract';
import { PASS } from '../../../domain/execution-gate-contract';
import { assertCustomerMayMoveMoney } from '../services/money-movement-policy';

/** The paying customer may move money (not deleted, verified, terms accepted); its row stays locked until the funds are held (the execution's read locks it, or this gate does). */
export const customerMayMoveMoney: ExecutionGate = {
  name: 'customer-may-move-money',
  async check(em, subject) {
    if (subject.customerId) await assertCustomerMayMoveMoney(em, subject.platformId, subject.customerId, { lock: !subject.customerRowLocked });
    return PASS;
  },
};

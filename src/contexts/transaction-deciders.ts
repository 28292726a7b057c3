import type { TransactionDecider } from '../domain/transaction-decider-contract';
import { incomingPaymentApproval } from './payments';
import { agentActionDecider } from './agents';

/**
 * Every kind of transaction that waits for its platform's decision (POST /transactions/{id}/approve
 * and /reject, owned by the payments context). Each decider lives in the context that owns the
 * wait; adding one is its own file there and one line here.
 */
export const TRANSACTION_DECIDERS: readonly TransactionDecider[] = [incomingPaymentApproval, agentActionDecider];

import type { TransactionDecider } from '../../../domain/transaction-decider-contract';
import { DomainError } from '../../../domain/errors';
import { decideAgentAction, pendingActionOf } from '../services/agent-actions';

/**
 * POST /transactions/{id}/approve|reject on a payment an agent's action holds for approval: the
 * same decision as POST /agents/{agentId}/actions/{actionId}/approve|reject (one service).
 */
export const agentActionDecider: TransactionDecider = {
  name: 'agent-action',
  async waitsFor(em, transaction) {
    if (!transaction.agentId) return false;
    return (await pendingActionOf(em, transaction.platformId, transaction.id)) !== null;
  },
  async approve({ em, temporal, transaction }) {
    await decideAgentAction(em, temporal, await pendingAction(em, transaction), { decision: 'APPROVE' });
  },
  async reject({ em, temporal, transaction }, body) {
    await decideAgentAction(em, temporal, await pendingAction(em, transaction), { decision: 'REJECT', ...(body.reason ? { reason: body.reason } : {}) });
  },
};

async function pendingAction(em: Parameters<TransactionDecider['waitsFor']>[0], transaction: { id: string; platformId: string }) {
  const action = await pendingActionOf(em, transaction.platformId, transaction.id);
  if (!action) throw new DomainError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', 'The transaction is not waiting for an approval');
  return action;
}

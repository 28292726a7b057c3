import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer } from '../../customers';
import { findQuoteView, transactionViewsByIds } from '../../payments';
import { policyOf } from '../domain/agent-policy';
import type { Agent, AgentAction, AgentDeviceCode } from '../entities';
import { usagesOf, type AgentUsage } from './agent-usage';

export function agentView(agent: Agent, usage: AgentUsage) {
  return {
    id: agent.id,
    name: agent.name,
    customerId: agent.customerId,
    isPaused: agent.isPaused,
    isConnected: agent.isConnected,
    policy: policyOf(agent.policy),
    usage,
    createdAt: agent.createdAt.toISOString(),
    updatedAt: agent.updatedAt.toISOString(),
  };
}

/** Agents with their usage, computed in one query for the whole list. */
export async function agentViews(em: EntityManager, agents: Agent[]) {
  const usages = await usagesOf(em, agents);
  return agents.map((agent) => agentView(agent, usages.get(agent.id)!));
}

/** The code is shown only when issued: the stored row has its hash alone. */
export function deviceCodeView(code: string, row: AgentDeviceCode) {
  return { code, agentId: row.agentId, expiresAt: row.expiresAt.toISOString(), redeemed: !!row.redeemedAt };
}

/** An action's transaction is the reference's once the action is approved: absent while it waits for approval or after its rejection (nothing ran). */
const showsTransaction = (action: AgentAction) => action.status !== 'PENDING_APPROVAL' && action.status !== 'REJECTED';

/** Actions as the reference's AgentAction: with the customer's platformCustomerId, the quote and the resulting transaction. */
export async function actionViews(em: EntityManager, actions: AgentAction[]) {
  if (actions.length === 0) return [];
  const platformId = actions[0]!.platformId;
  const customers = await em.find(Customer, { id: { $in: [...new Set(actions.map((a) => a.customerId))] } }, { fields: ['id', 'platformCustomerId'] });
  const platformCustomerIds = new Map(customers.map((c) => [c.id, c.platformCustomerId]));
  const transactions = await transactionViewsByIds(
    em,
    platformId,
    actions
      .filter(showsTransaction)
      .map((a) => a.transactionId)
      .filter((id): id is string => !!id),
  );
  return Promise.all(
    actions.map(async (action) => {
      const quote = action.quoteId ? await findQuoteView(em, platformId, action.quoteId) : null;
      const transaction = action.transactionId && showsTransaction(action) ? transactions.get(action.transactionId) : undefined;
      const details = action.transferDetails;
      return {
        id: action.id,
        agentId: action.agentId,
        customerId: action.customerId,
        platformCustomerId: platformCustomerIds.get(action.customerId) ?? '',
        status: action.status,
        type: action.type,
        ...(quote ? { quote } : {}),
        ...(details ? { transferDetails: { ...details, amount: BigInt(details.amount) } } : {}),
        ...(transaction ? { transaction } : {}),
        ...(action.rejectionReason ? { rejectionReason: action.rejectionReason } : {}),
        createdAt: action.createdAt.toISOString(),
        updatedAt: action.updatedAt.toISOString(),
      };
    }),
  );
}

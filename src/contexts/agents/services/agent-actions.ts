import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import type { SortOrder } from '../../../domain/pagination';
import { listPage } from '../../../services/listing';
import { isDecidable, type AgentActionStatus } from '../domain/agent-actions';
import { AgentAction } from '../entities';
import { actionViews } from './agent-views';

export interface ActionListQuery {
  limit: number;
  cursor?: string;
  sortOrder?: SortOrder;
  agentId?: string;
  customerId?: string;
  status?: AgentActionStatus;
  approvalRequired?: boolean;
  startDate?: string;
  endDate?: string;
}

export async function listActions(em: EntityManager, platformId: string, query: ActionListQuery) {
  const where: FilterQuery<AgentAction>[] = [{ platformId }];
  if (query.agentId) where.push({ agentId: query.agentId });
  if (query.customerId) where.push({ customerId: query.customerId });
  if (query.status) where.push({ status: query.status });
  if (query.approvalRequired) where.push({ approvalRequired: true });
  if (query.startDate) where.push({ createdAt: { $gte: new Date(query.startDate) } });
  if (query.endDate) where.push({ createdAt: { $lte: new Date(query.endDate) } });
  return listPage(em, AgentAction, { $and: where }, query, (rows) => actionViews(em, rows));
}

/** One action of the agent (of the platform); any other is not found, as an unknown id is. */
export async function findAction(em: EntityManager, platformId: string, agentId: string, actionId: string): Promise<AgentAction> {
  const action = await em.findOne(AgentAction, { id: actionId, agentId, platformId });
  if (!action) throw DomainError.notFound('Agent action');
  return action;
}

/**
 * The platform's approval or rejection: only an action PENDING_APPROVAL is decided; any other is
 * 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL (spec §7).
 */
export async function decideAction(em: EntityManager, platformId: string, agentId: string, actionId: string): Promise<never> {
  const action = await findAction(em, platformId, agentId, actionId);
  if (!isDecidable(action.status)) {
    throw new DomainError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', `The action is ${action.status}, not PENDING_APPROVAL`);
  }
  // No action waits for approval yet: agents cannot submit money movements until their execution is built.
  throw new DomainError('NOT_IMPLEMENTED', 'Approving or rejecting a pending agent action is not offered yet');
}

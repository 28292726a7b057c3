import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Customer } from '../../customers';
import { InternalAccount } from '../../ledger';
import type { Environment } from '../../platforms';
import { DomainError, type FieldError } from '../../../domain/errors';
import { listPage } from '../../../services/listing';
import { accountsNamedBy, mergePolicy, policyOf, policyProblems, storedPolicy, type AgentPolicy, type AgentPolicyUpdate } from '../domain/agent-policy';
import { Agent } from '../entities';
import { findAgent } from './agent-lookup';
import { issueDeviceCode } from './device-codes';
import { agentViews } from './agent-views';

export interface AgentListQuery {
  limit: number;
  cursor?: string;
  customerId?: string;
  isPaused?: boolean;
  isConnected?: boolean;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
}

/**
 * The accounts a policy names must be internal accounts of the agent's customer; any other id —
 * unknown, or another customer's — gets the same field error.
 */
async function accountProblems(em: EntityManager, platformId: string, customerId: string, policy: AgentPolicy, prefix: string): Promise<FieldError[]> {
  const named = accountsNamedBy(policy);
  if (named.length === 0) return [];
  const owned = new Set(
    (await em.find(InternalAccount, { id: { $in: named.map((n) => n.accountId) }, platformId, customerId }, { fields: ['id'] })).map((a) => a.id),
  );
  return named
    .filter((n) => !owned.has(n.accountId))
    .map((n) => ({ field: `${prefix}.${n.field}`, constraint: 'customerAccount', message: "must be an internal account of the agent's customer" }));
}

export async function createAgent(
  em: EntityManager,
  masterKey: Buffer,
  input: { platformId: string; environment: Environment; name: string; customerId: string; policy: AgentPolicy },
) {
  const customer = await em.findOne(Customer, { id: input.customerId, platformId: input.platformId, isDeleted: false });
  if (!customer) throw DomainError.notFound('Customer');
  const problems = [...policyProblems(input.policy), ...(await accountProblems(em, input.platformId, customer.id, input.policy, 'policy'))];
  if (problems.length > 0) throw DomainError.invalidInput(problems);
  return em.transactional(async (tx) => {
    const now = new Date();
    const agent = tx.create(Agent, {
      id: `Agent:${randomUUID()}`,
      platformId: input.platformId,
      environment: input.environment,
      customerId: customer.id,
      name: input.name,
      isPaused: false,
      isConnected: false,
      policy: storedPolicy(input.policy),
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    const deviceCode = await issueDeviceCode(tx, masterKey, agent, now);
    return { agent, deviceCode };
  });
}

export async function listAgents(em: EntityManager, platformId: string, query: AgentListQuery) {
  const where: FilterQuery<Agent>[] = [{ platformId }];
  if (query.customerId) where.push({ customerId: query.customerId });
  if (query.isPaused !== undefined) where.push({ isPaused: query.isPaused });
  if (query.isConnected !== undefined) where.push({ isConnected: query.isConnected });
  if (query.createdAfter) where.push({ createdAt: { $gte: new Date(query.createdAfter) } });
  if (query.createdBefore) where.push({ createdAt: { $lte: new Date(query.createdBefore) } });
  if (query.updatedAfter) where.push({ updatedAt: { $gte: new Date(query.updatedAfter) } });
  if (query.updatedBefore) where.push({ updatedAt: { $lte: new Date(query.updatedBefore) } });
  return listPage(em, Agent, { $and: where }, query, (rows) => agentViews(em, rows));
}

export async function updateAgent(em: EntityManager, platformId: string, agentId: string, change: { name?: string; isPaused?: boolean }): Promise<Agent> {
  return em.transactional(async (tx) => {
    const agent = await findAgent(tx, platformId, agentId, true);
    if (change.name !== undefined) agent.name = change.name;
    if (change.isPaused !== undefined) agent.isPaused = change.isPaused;
    agent.updatedAt = new Date();
    return agent;
  });
}

/** A partial policy update, in force for the agent's next request (authentication reads the policy each time). */
export async function updateAgentPolicy(em: EntityManager, platformId: string, agentId: string, update: AgentPolicyUpdate): Promise<Agent> {
  return em.transactional(async (tx) => {
    const agent = await findAgent(tx, platformId, agentId, true);
    const policy = mergePolicy(policyOf(agent.policy), update);
    // Reported by the names the request used (the policy update's fields are at the top).
    const problems = [
      ...policyProblems(policy, 'policy').map((p) => ({ ...p, field: p.field.replace(/^policy\./, '') })),
      ...(await accountProblems(tx, platformId, agent.customerId, policy, 'policy')).map((p) => ({ ...p, field: p.field.replace(/^policy\./, '') })),
    ];
    if (problems.length > 0) throw DomainError.invalidInput(problems);
    agent.policy = storedPolicy(policy);
    agent.updatedAt = new Date();
    return agent;
  });
}

/** Deleted for good: its device codes and bearer tokens go with it (cascade), so its token fails from the next request on. */
export async function deleteAgent(em: EntityManager, platformId: string, agentId: string): Promise<void> {
  const deleted = await em.nativeDelete(Agent, { id: agentId, platformId });
  if (deleted === 0) throw DomainError.notFound('Agent');
}

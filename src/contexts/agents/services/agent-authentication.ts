import type { EntityManager } from '@mikro-orm/postgresql';
import { policyOf, type AgentPermission } from '../domain/agent-policy';
import { Agent, AgentAccessToken } from '../entities';
import { accessTokenHash } from './agent-secrets';

export interface AuthenticatedAgent {
  tokenId: string;
  agent: Agent;
  permissions: AgentPermission[];
}

/**
 * The agent a bearer token belongs to, read on every request: a deleted agent's token (deleted
 * with it) fails at once, and a policy or pause change applies to the next request.
 */
export async function authenticateAgentToken(em: EntityManager, masterKey: Buffer, token: string): Promise<AuthenticatedAgent | null> {
  const row = await em.findOne(AgentAccessToken, { tokenHash: accessTokenHash(masterKey, token) });
  if (!row) return null;
  const agent = await em.findOne(Agent, { id: row.agentId });
  if (!agent) return null;
  return { tokenId: row.id, agent, permissions: policyOf(agent.policy).permissions };
}

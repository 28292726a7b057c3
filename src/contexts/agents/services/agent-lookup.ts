import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { Agent } from '../entities';

/** An agent of the platform; another platform's is not found, as an unknown id is. */
export async function findAgent(em: EntityManager, platformId: string, agentId: string, lock = false): Promise<Agent> {
  const agent = await em.findOne(Agent, { id: agentId, platformId }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!agent) throw DomainError.notFound('Agent');
  return agent;
}

import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { deleteExternalAccount, findExternalAccount, registerExternalAccountFor, type NewExternalAccount } from '../../external-accounts';
import { InternalAccount, internalAccountViews } from '../../ledger';
import type { Environment } from '../../platforms';
import { DomainError } from '../../../domain/errors';
import type { SortOrder } from '../../../domain/pagination';
import { listPage } from '../../../services/listing';
import { policyOf } from '../domain/agent-policy';
import { findAgent } from './agent-lookup';

/** The calling agent as its credential names it. */
export interface AgentRef {
  platformId: string;
  agentId: string;
  customerId: string;
}

/** GET /agents/me/internal-accounts: the agent's customer's internal accounts, only those its policy allows when it names some. */
export async function listAgentInternalAccounts(
  em: EntityManager,
  me: Pick<AgentRef, 'platformId' | 'agentId'>,
  query: { limit: number; cursor?: string; sortOrder?: SortOrder; currency?: string; type?: InternalAccount['type'] },
) {
  const agent = await findAgent(em, me.platformId, me.agentId);
  const allowed = policyOf(agent.policy).accountRestrictions?.allowedAccountIds;
  const where: FilterQuery<InternalAccount> = {
    platformId: me.platformId,
    customerId: agent.customerId,
    ...(allowed ? { id: { $in: allowed } } : {}),
    ...(query.currency ? { currency: query.currency } : {}),
    ...(query.type ? { type: query.type } : {}),
  };
  return listPage(em, InternalAccount, where, query, (rows) => internalAccountViews(em, rows));
}

/** POST /agents/me/external-accounts: an account of the agent's customer registered (its checks started), as the platform registers one. */
export async function registerAgentExternalAccount(
  em: EntityManager,
  engine: Parameters<typeof registerExternalAccountFor>[1],
  me: AgentRef & { environment: Environment },
  body: NewExternalAccount,
) {
  // Another customer's id is not the agent's to name: answered as an unknown customer.
  if (body.customerId !== undefined && body.customerId !== me.customerId) throw DomainError.notFound('Customer');
  return registerExternalAccountFor(em, engine, {
    platformId: me.platformId,
    environment: me.environment,
    owner: 'CUSTOMER',
    body: { ...body, customerId: me.customerId },
  });
}

/** One of the agent's customer's external accounts; any other is not found. */
export async function findAgentExternalAccount(em: EntityManager, me: Pick<AgentRef, 'platformId' | 'customerId'>, externalAccountId: string) {
  const account = await findExternalAccount(em, me.platformId, externalAccountId, 'CUSTOMER');
  if (account.customerId !== me.customerId) throw DomainError.notFound('External account');
  return account;
}

/** DELETE /agents/me/external-accounts/{id}: the account's customer never changes, so the check above keeps the deletion to the agent's customer's. */
export async function deleteAgentExternalAccount(em: EntityManager, me: Pick<AgentRef, 'platformId' | 'customerId'>, externalAccountId: string) {
  const account = await findAgentExternalAccount(em, me, externalAccountId);
  await deleteExternalAccount(em, me.platformId, account.id, 'CUSTOMER');
}

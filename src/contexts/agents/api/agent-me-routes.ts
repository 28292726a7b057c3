import { InternalAccountListSchema, InternalAccountListQuerySchema } from '../../ledger';
import {
  ExternalAccountCreateSchema,
  ExternalAccountListSchema,
  ExternalAccountSchema,
  externalAccountView,
  listExternalAccounts,
  type NewExternalAccount,
  registrationProblemsOf,
} from '../../external-accounts';
import {
  findCustomerTransactionView,
  listCustomerTransactions,
  QuoteSchema,
  TransactionListQuerySchema,
  TransactionListSchema,
  TransactionOrCardSchema,
} from '../../payments';
import type { Caller } from '../../../api/context';
import { z } from '../../../api/openapi-registry';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { findAction, listActions } from '../services/agent-actions';
import { findAgent } from '../services/agent-lookup';
import { actionViews, agentView } from '../services/agent-views';
import { usageOf } from '../services/agent-usage';
import { deleteAgentExternalAccount, findAgentExternalAccount, listAgentInternalAccounts, registerAgentExternalAccount } from '../services/agent-accounts';
import { findAgentQuoteView } from '../services/agent-payments';
import { AgentActionListQuerySchema, AgentExternalAccountListQuerySchema, AgentActionListSchema, AgentActionSchema, AgentSchema } from './schemas';

const TAGS = ['Agent Operations'];
const credential = 'agent' as const;

/** The calling agent (authentication put it there) and its customer. */
const me = (caller: Caller) => caller.agent!;

/** The calling agent as the agents' services name it. */
const agentRef = (caller: Caller) => ({ platformId: caller.platformId, agentId: me(caller).agentId, customerId: me(caller).customerId });

// A schema of its own, not an extension of the platform's: an extension is documented as allOf the
// platform's request and a closed object of customerId alone, which no body with accountInfo satisfies.
const AgentExternalAccountCreateSchema = z
  .object({
    ...ExternalAccountCreateSchema.shape,
    customerId: ExternalAccountCreateSchema.shape.customerId.optional().openapi({ description: "The agent's customer, inferred when left out" }),
  })
  .strict()
  .openapi('AgentExternalAccountCreateRequest');

const AgentInternalAccountListQuerySchema = InternalAccountListQuerySchema.omit({ customerId: true });
// GET /transactions without its customer filters: the agent's customer is the only one.
const { customerId: _customerId, platformCustomerId: _platformCustomerId, ...transactionFilters } = TransactionListQuerySchema.shape;
const AgentTransactionListQuerySchema = z
  .object(transactionFilters)
  .refine((q) => !q.startDate || !q.endDate || Date.parse(q.startDate) <= Date.parse(q.endDate), {
    message: 'endDate must not be before startDate',
    path: ['endDate'],
    params: { constraint: 'range' },
  });

export const agentMeRoutes = [
  defineRoute({
    method: 'get',
    path: '/agents/me',
    credential,
    operationId: 'getAgentMe',
    summary: 'Get current agent',
    description: 'The calling agent: its policy and usage',
    tags: TAGS,
    responses: { 200: { description: 'The agent', schema: AgentSchema } },
    handler: async ({ em, caller }) => {
      const agent = await findAgent(em, caller.platformId, me(caller).agentId);
      return { status: 200, body: agentView(agent, await usageOf(em, agent)) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/agents/me/transactions',
    credential,
    agentPermission: 'VIEW_TRANSACTIONS',
    operationId: 'agentListTransactions',
    summary: 'List agent transactions',
    description: "The agent's customer's transactions, newest first unless sortOrder=asc",
    tags: TAGS,
    query: AgentTransactionListQuerySchema,
    responses: { 200: { description: 'A page of transactions', schema: TransactionListSchema }, 400: errorResponses[400] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listCustomerTransactions(em, caller.platformId, me(caller).customerId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/agents/me/transactions/:transactionId',
    credential,
    agentPermission: 'VIEW_TRANSACTIONS',
    operationId: 'agentGetTransaction',
    summary: 'Get agent transaction by ID',
    description: "One of the agent's customer's transactions; any other is not found",
    tags: TAGS,
    params: IdParam('transactionId'),
    responses: { 200: { description: 'The transaction', schema: TransactionOrCardSchema }, 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({
      status: 200,
      body: await findCustomerTransactionView(em, caller.platformId, me(caller).customerId, params.transactionId),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/agents/me/quotes/:quoteId',
    credential,
    operationId: 'agentGetQuote',
    summary: 'Get agent quote by ID',
    description: 'A quote the agent created; any other is not found',
    tags: TAGS,
    params: IdParam('quoteId'),
    responses: { 200: { description: 'The quote', schema: QuoteSchema }, 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({ status: 200, body: await findAgentQuoteView(em, agentRef(caller), params.quoteId) }),
  }),
  defineRoute({
    method: 'get',
    path: '/agents/me/actions',
    credential,
    operationId: 'agentListActions',
    summary: "List agent's own actions",
    description: "The agent's actions, newest first: poll them for the platform's decisions",
    tags: TAGS,
    query: AgentActionListQuerySchema,
    responses: { 200: { description: 'A page of actions', schema: AgentActionListSchema }, 400: errorResponses[400] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listActions(em, caller.platformId, { ...query, agentId: me(caller).agentId }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/agents/me/actions/:actionId',
    credential,
    operationId: 'agentGetAction',
    summary: 'Get an agent action',
    description: "One of the agent's actions",
    tags: TAGS,
    params: IdParam('actionId'),
    responses: {
      200: { description: 'The action', schema: AgentActionSchema },
      404: { description: 'NOT_FOUND: no such action', schema: errorResponses[404].schema },
    },
    handler: async ({ em, caller, params }) => ({
      status: 200,
      body: (await actionViews(em, [await findAction(em, caller.platformId, me(caller).agentId, params.actionId)]))[0],
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/agents/me/internal-accounts',
    credential,
    operationId: 'agentListInternalAccounts',
    summary: "List agent's internal accounts",
    description: "The agent's customer's internal accounts with their balances; only those its policy allows when it names some",
    tags: TAGS,
    query: AgentInternalAccountListQuerySchema,
    responses: { 200: { description: 'A page of accounts, newest first', schema: InternalAccountListSchema }, 400: errorResponses[400] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listAgentInternalAccounts(em, agentRef(caller), query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/agents/me/external-accounts',
    credential,
    agentPermission: 'MANAGE_EXTERNAL_ACCOUNTS',
    operationId: 'agentListExternalAccounts',
    summary: 'List agent external accounts',
    description: "The agent's customer's external accounts, newest first",
    tags: TAGS,
    query: AgentExternalAccountListQuerySchema,
    responses: { 200: { description: 'A page of accounts', schema: ExternalAccountListSchema }, 400: errorResponses[400] },
    handler: async ({ em, caller, query }) => ({
      status: 200,
      body: await listExternalAccounts(em, caller.platformId, 'CUSTOMER', { ...query, customerId: me(caller).customerId }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/agents/me/external-accounts',
    credential,
    agentPermission: 'MANAGE_EXTERNAL_ACCOUNTS',
    operationId: 'agentCreateExternalAccount',
    summary: 'Add an external account',
    description: "Register a bank account or wallet of the agent's customer (customerId inferred)",
    tags: TAGS,
    body: AgentExternalAccountCreateSchema,
    check: async ({ em, caller, body }) => registrationProblemsOf(em, caller.platformId, body as Partial<NewExternalAccount>),
    responses: {
      201: { description: 'Registered', schema: ExternalAccountSchema },
      400: errorResponses[400],
      404: { description: "USER_NOT_FOUND: a customerId other than the agent's customer", schema: errorResponses[404].schema },
      409: { description: 'DUPLICATE_EXTERNAL_ACCOUNT: the customer already has this account (details.existingAccountId)', schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, body, deps }) => {
      const account = await registerAgentExternalAccount(em, deps, { ...agentRef(caller), environment: caller.environment }, body as NewExternalAccount);
      return { status: 201, body: externalAccountView(account) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/agents/me/external-accounts/:externalAccountId',
    credential,
    agentPermission: 'MANAGE_EXTERNAL_ACCOUNTS',
    operationId: 'agentGetExternalAccount',
    summary: 'Get agent external account by ID',
    description: "One of the agent's customer's external accounts; any other is not found",
    tags: TAGS,
    params: IdParam('externalAccountId'),
    responses: { 200: { description: 'The account', schema: ExternalAccountSchema }, 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({
      status: 200,
      body: externalAccountView(await findAgentExternalAccount(em, agentRef(caller), params.externalAccountId)),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/agents/me/external-accounts/:externalAccountId',
    credential,
    agentPermission: 'MANAGE_EXTERNAL_ACCOUNTS',
    operationId: 'agentDeleteExternalAccount',
    summary: 'Delete agent external account',
    description: "Delete one of the agent's customer's external accounts (payments that use it keep their record of it)",
    tags: TAGS,
    params: IdParam('externalAccountId'),
    responses: { 204: { description: 'Deleted' }, 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => {
      await deleteAgentExternalAccount(em, agentRef(caller), params.externalAccountId);
      return { status: 204 };
    },
  }),
];

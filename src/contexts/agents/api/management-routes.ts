import { defineRoute } from '../../../api/route';
import { z } from '../../../api/openapi-registry';
import { errorResponses, ID_PARAMS, IdParam } from '../../../api/schemas/common';
import type { AgentPolicy, AgentPolicyUpdate } from '../domain/agent-policy';
import { approveAgentAction, decideAgentAction, findAction, listActions } from '../services/agent-actions';
import { findAgent } from '../services/agent-lookup';
import { agentView, agentViews, deviceCodeView } from '../services/agent-views';
import { usageOf } from '../services/agent-usage';
import { createAgent, deleteAgent, listAgents, updateAgent, updateAgentPolicy } from '../services/agents';
import { regenerateDeviceCode } from '../services/device-codes';
import {
  AgentActionRejectRequestSchema,
  AgentActionListSchema,
  AgentActionSchema,
  AgentCreateRequestSchema,
  AgentCreateResponseSchema,
  AgentDeviceCodeSchema,
  AgentListQuerySchema,
  AgentListSchema,
  AgentPolicyUpdateRequestSchema,
  AgentSchema,
  AgentUpdateRequestSchema,
  ApprovalListQuerySchema,
} from './schemas';

const TAGS = ['Agent Management'];
const AgentParams = IdParam('agentId');
const ActionParams = z.object({ agentId: z.string().min(1).max(200), actionId: z.string().min(1).max(200) });
ID_PARAMS.add(ActionParams);
const notFound = { description: 'NOT_FOUND: no such agent', schema: errorResponses[404].schema };
const notPending = {
  description: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL: the action is not PENDING_APPROVAL (approved, rejected or failed already)',
  schema: errorResponses[400].schema,
};

export const managementRoutes = [
  defineRoute({
    method: 'post',
    path: '/agents',
    operationId: 'createAgent',
    summary: 'Create an agent',
    description: "Create an agent acting for one of the platform's customers within a policy; the answer holds the device code that installs it",
    tags: TAGS,
    body: AgentCreateRequestSchema,
    idempotent: true,
    // The device code is a credential: a replay of this answer is stored sealed.
    sealedReplay: true,
    responses: {
      201: { description: 'The agent and its device code (the code is shown in this answer only)', schema: AgentCreateResponseSchema },
      400: errorResponses[400],
      401: errorResponses[401],
      404: { description: 'USER_NOT_FOUND: no such customer', schema: errorResponses[404].schema },
    },
    handler: async ({ em, caller, body, deps }) => {
      const { agent, deviceCode } = await createAgent(em, deps.config.masterKey, {
        platformId: caller.platformId,
        environment: caller.environment,
        name: body.name,
        customerId: body.customerId,
        policy: body.policy as AgentPolicy,
      });
      return { status: 201, body: { agent: agentView(agent, await usageOf(em, agent)), deviceCode: deviceCodeView(deviceCode.code, deviceCode.row) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/agents',
    operationId: 'listAgents',
    summary: 'List agents',
    description: "List the platform's agents, newest first",
    tags: TAGS,
    query: AgentListQuerySchema,
    responses: { 200: { description: 'A page of agents', schema: AgentListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listAgents(em, caller.platformId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/agents/approvals',
    operationId: 'listAgentApprovals',
    summary: 'List agent transaction approval requests',
    description: 'Agent actions the policy sent to the platform for approval: waiting, or decided',
    tags: TAGS,
    query: ApprovalListQuerySchema,
    responses: { 200: { description: 'A page of agent actions', schema: AgentActionListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listActions(em, caller.platformId, { ...query, approvalRequired: true }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/agents/:agentId',
    operationId: 'getAgentById',
    summary: 'Get agent by ID',
    description: 'One agent with its policy and usage',
    tags: TAGS,
    params: AgentParams,
    responses: { 200: { description: 'The agent', schema: AgentSchema }, 401: errorResponses[401], 404: notFound },
    handler: async ({ em, caller, params }) => {
      const agent = await findAgent(em, caller.platformId, params.agentId);
      return { status: 200, body: agentView(agent, await usageOf(em, agent)) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/agents/:agentId',
    operationId: 'updateAgent',
    summary: 'Update agent',
    description: 'Rename an agent, or pause it (it may read but not act) and resume it',
    tags: TAGS,
    params: AgentParams,
    body: AgentUpdateRequestSchema,
    responses: { 200: { description: 'The agent', schema: AgentSchema }, 400: errorResponses[400], 401: errorResponses[401], 404: notFound },
    handler: async ({ em, caller, params, body }) => {
      const agent = await updateAgent(em, caller.platformId, params.agentId, body);
      return { status: 200, body: (await agentViews(em, [agent]))[0] };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/agents/:agentId',
    operationId: 'deleteAgent',
    summary: 'Delete agent',
    description: 'Delete an agent for good: its access token stops working at once',
    tags: TAGS,
    params: AgentParams,
    responses: { 204: { description: 'Deleted' }, 401: errorResponses[401], 404: notFound },
    handler: async ({ em, caller, params }) => {
      await deleteAgent(em, caller.platformId, params.agentId);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/agents/:agentId/policy',
    operationId: 'updateAgentPolicy',
    summary: 'Update agent policy',
    description:
      'Change part of the policy, in force from the next request: permissions replace the list, spending limits merge field by field, accountRestrictions and approvalThresholds replace the whole object',
    tags: TAGS,
    params: AgentParams,
    body: AgentPolicyUpdateRequestSchema,
    responses: { 200: { description: 'The agent', schema: AgentSchema }, 400: errorResponses[400], 401: errorResponses[401], 404: notFound },
    handler: async ({ em, caller, params, body }) => {
      const agent = await updateAgentPolicy(em, caller.platformId, params.agentId, body as AgentPolicyUpdate);
      return { status: 200, body: (await agentViews(em, [agent]))[0] };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/agents/:agentId/device-codes',
    operationId: 'regenerateAgentDeviceCode',
    summary: 'Regenerate a device code',
    description: 'A new device code for an agent not connected yet; its earlier unredeemed codes stop working',
    tags: TAGS,
    params: AgentParams,
    responses: {
      201: { description: 'The new code (shown in this answer only)', schema: AgentDeviceCodeSchema },
      401: errorResponses[401],
      404: notFound,
      409: { description: 'CONFLICT: the agent is connected already (delete it and create another to reinstall)', schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, params, deps }) => {
      const { code, row } = await regenerateDeviceCode(em, deps.config.masterKey, caller.platformId, params.agentId);
      return { status: 201, body: deviceCodeView(code, row) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/agents/:agentId/actions/:actionId/approve',
    operationId: 'approveAgentAction',
    summary: 'Approve an agent action',
    description:
      "Approve an action waiting for approval (PENDING_APPROVAL): its payment is executed, the policy judged again (pause, limits, the quote's expiry); APPROVED once the funds are held, or FAILED when the policy or the execution now refuses it (the transaction's failureReason says why)",
    tags: TAGS,
    params: ActionParams,
    responses: {
      200: { description: 'The action', schema: AgentActionSchema },
      401: errorResponses[401],
      404: { description: 'NOT_FOUND: no such agent or action', schema: errorResponses[404].schema },
      409: notPending,
    },
    handler: async ({ em, caller, params, deps }) => {
      const action = await findAction(em, caller.platformId, params.agentId, params.actionId);
      return { status: 200, body: await approveAgentAction(em, deps, action) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/agents/:agentId/actions/:actionId/reject',
    operationId: 'rejectAgentAction',
    summary: 'Reject an agent action',
    description: 'Reject an action waiting for approval (PENDING_APPROVAL), with an optional reason: REJECTED, its transaction FAILED with nothing moved',
    tags: TAGS,
    params: ActionParams,
    body: AgentActionRejectRequestSchema,
    responses: {
      200: { description: 'The action', schema: AgentActionSchema },
      400: errorResponses[400],
      401: errorResponses[401],
      404: { description: 'NOT_FOUND: no such agent or action', schema: errorResponses[404].schema },
      409: notPending,
    },
    handler: async ({ em, caller, params, body, deps }) => {
      const action = await findAction(em, caller.platformId, params.agentId, params.actionId);
      return { status: 200, body: await decideAgentAction(em, deps.temporal, action, { decision: 'REJECT', ...(body.reason ? { reason: body.reason } : {}) }) };
    },
  }),
];

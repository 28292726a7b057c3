import { defineRoute } from '../../../api/route';
import { errorResponses } from '../../../api/schemas/common';
import { policyOf } from '../domain/agent-policy';
import { findDeviceCode, redeemDeviceCode } from '../services/device-codes';
import { AgentDeviceCodeRedeemResponseSchema, AgentDeviceCodeStatusSchema, DeviceCodeParams } from './schemas';

const TAGS = ['Agent Management'];
const unknownCode = { description: 'NOT_FOUND: no such device code', schema: errorResponses[404].schema };

export const deviceCodeRoutes = [
  defineRoute({
    method: 'get',
    path: '/agents/device-codes/:code/status',
    operationId: 'getAgentDeviceCodeStatus',
    summary: 'Get device code status',
    description: "Whether one of the platform's device codes was redeemed (the agent's software installed)",
    tags: TAGS,
    params: DeviceCodeParams,
    responses: {
      200: { description: 'The code and whether it was redeemed', schema: AgentDeviceCodeStatusSchema },
      401: errorResponses[401],
      404: unknownCode,
    },
    handler: async ({ em, caller, params, deps }) => {
      const row = await findDeviceCode(em, deps.config.masterKey, caller.platformId, params.code);
      return { status: 200, body: { code: params.code, redeemed: !!row.redeemedAt } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/agents/device-codes/:code/redeem',
    credential: 'device-code',
    operationId: 'redeemAgentDeviceCode',
    summary: 'Redeem device code',
    description:
      "Called by the agent's software, without platform credentials: the code is the proof. Answers the agent's bearer access token, once: a code is redeemed once, before it expires",
    tags: TAGS,
    params: DeviceCodeParams,
    responses: {
      200: { description: 'The access token (shown in this answer only) and the policy', schema: AgentDeviceCodeRedeemResponseSchema },
      400: { description: 'INVALID_INPUT on code: redeemed already, replaced by a newer code, or expired', schema: errorResponses[400].schema },
      404: unknownCode,
    },
    handler: async ({ em, caller, deps }) => {
      const { agent, accessToken } = await redeemDeviceCode(em, deps.config.masterKey, caller.deviceCodeId!);
      return { status: 200, body: { agentId: agent.id, agentName: agent.name, accessToken, policy: policyOf(agent.policy) } };
    },
  }),
];

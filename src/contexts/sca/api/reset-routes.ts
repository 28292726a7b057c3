import { defineRoute } from '../../../api/route';
import { errorResponses } from '../../../api/schemas/common';
import { completeFactorReset, factorResetStatus, startFactorReset } from '../services/factor-resets';
import { notScaCustomer } from './factor-routes';
import {
  ResetIdParam,
  ScaCustomerQuery,
  TwoFactorResetCompleteRequestSchema,
  TwoFactorResetStartRequestSchema,
  TwoFactorResetStartSchema,
  TwoFactorResetStatusSchema,
} from './schemas';

const TAGS = ['Strong Customer Authentication'];

export const resetRoutes = [
  defineRoute({
    method: 'post',
    path: '/sca/factors/reset',
    operationId: 'startTwoFactorReset',
    summary: 'Start a 2FA reset',
    description:
      'Opens a liveness-gated reset of a lost factor (at most 5 per customer in 24 hours). Sandbox: the liveness check is simulated and passes 2 s after the start',
    tags: TAGS,
    query: ScaCustomerQuery,
    body: TwoFactorResetStartRequestSchema,
    responses: {
      201: { description: 'The reset and its liveness handle', schema: TwoFactorResetStartSchema },
      400: { description: 'INVALID_INPUT: the customer holds no such factor', schema: errorResponses[400].schema },
      401: errorResponses[401],
      404: errorResponses[404],
      409: notScaCustomer,
      501: {
        description: 'NOT_IMPLEMENTED: production, no liveness-check provider is configured on this server; nothing stored',
        schema: errorResponses[400].schema,
      },
    },
    handler: async ({ em, caller, query, body }) => ({
      status: 201,
      body: await startFactorReset(em, { platformId: caller.platformId, customerId: query.customerId, factor: body.factor, environment: caller.environment }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/sca/factors/reset/:resetId',
    operationId: 'getTwoFactorResetStatus',
    summary: 'Get 2FA reset status',
    description: 'Poll until LIVENESS_PASSED, then complete; COMPLETED, REJECTED and EXPIRED are final',
    tags: TAGS,
    params: ResetIdParam,
    query: ScaCustomerQuery,
    responses: {
      200: { description: 'The reset', schema: TwoFactorResetStatusSchema },
      401: errorResponses[401],
      404: errorResponses[404],
      409: notScaCustomer,
    },
    handler: async ({ em, caller, query, params }) => ({
      status: 200,
      body: await factorResetStatus(em, { platformId: caller.platformId, customerId: query.customerId, resetId: params.resetId }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/sca/factors/reset/:resetId/complete',
    operationId: 'completeTwoFactorReset',
    summary: 'Complete a 2FA reset',
    description:
      'After LIVENESS_PASSED: a TOTP or passkey is removed (enrol again); SMS_OTP takes `mobile` as the new phone, to be verified before codes go to it',
    tags: TAGS,
    params: ResetIdParam,
    query: ScaCustomerQuery,
    body: TwoFactorResetCompleteRequestSchema,
    responses: {
      204: { description: 'Completed' },
      400: {
        description: 'INVALID_INPUT: the liveness check has not passed (or the reset ended), or an SMS_OTP reset without mobile',
        schema: errorResponses[400].schema,
      },
      401: errorResponses[401],
      404: errorResponses[404],
      409: notScaCustomer,
    },
    handler: async ({ em, caller, query, params, body }) => {
      await completeFactorReset(em, { platformId: caller.platformId, customerId: query.customerId, resetId: params.resetId, mobile: body.mobile });
      return { status: 204 };
    },
  }),
];

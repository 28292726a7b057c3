import { defineRoute } from '../../../api/route';
import { errorResponses } from '../../../api/schemas/common';
import { completeScaLogin, startScaLogin } from '../services/login';
import { recordSecurityEvent } from '../services/security-events';
import { notScaCustomer } from './factor-routes';
import {
  RecordSecurityEventRequestSchema,
  RecordSecurityEventResponseSchema,
  ScaCustomerQuery,
  ScaLoginCompleteRequestSchema,
  ScaLoginCompleteSchema,
  ScaLoginStartRequestSchema,
  ScaLoginStartSchema,
} from './schemas';

const TAGS = ['Strong Customer Authentication'];
const locked = {
  description: 'ACCOUNT_LOCKED: too many failed attempts; details: suspended, lockedUntil, failedAttempts',
  schema: errorResponses[400].schema,
};

export const loginRoutes = [
  defineRoute({
    method: 'post',
    path: '/sca/login/start',
    operationId: 'startScaLogin',
    summary: 'Start an SCA login',
    description:
      'SMS_OTP sends a code (sandbox: 123456, nothing sent) and answers challengeId and expiresAt; PASSKEY answers WebAuthn options (no challengeId); TOTP the factor only',
    tags: TAGS,
    query: ScaCustomerQuery,
    body: ScaLoginStartRequestSchema,
    responses: {
      200: { description: 'What the customer needs to complete the login', schema: ScaLoginStartSchema },
      400: { description: 'INVALID_INPUT: the customer does not hold this factor', schema: errorResponses[400].schema },
      401: errorResponses[401],
      404: errorResponses[404],
      409: notScaCustomer,
      429: {
        description: 'RATE_LIMITED: the customer asked for too many SMS codes (5 per 15 minutes, resends included); retry after Retry-After seconds',
        schema: errorResponses[400].schema,
      },
      501: {
        description: 'NOT_IMPLEMENTED: production SMS_OTP without an SMS provider configured on this server; nothing stored',
        schema: errorResponses[400].schema,
      },
    },
    handler: async ({ em, caller, query, body, deps }) => ({
      status: 200,
      body: await startScaLogin(em, {
        platformId: caller.platformId,
        customerId: query.customerId,
        factor: body.factor,
        environment: caller.environment,
        masterKey: deps.config.masterKey,
        ...(deps.scaCodeSender ? { sender: deps.scaCodeSender } : {}),
      }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/sca/login/complete',
    operationId: 'completeScaLogin',
    summary: 'Complete an SCA login',
    description:
      'The proof of the started factor (code, or passkeyAssertion and origin; challengeId for SMS_OTP, omitted for other factors: a passkey assertion names the challenge it signed) opens an SCA session (about 180 days)',
    tags: TAGS,
    query: ScaCustomerQuery,
    body: ScaLoginCompleteRequestSchema,
    responses: {
      200: { description: 'Logged in', schema: ScaLoginCompleteSchema },
      400: { description: 'INVALID_INPUT: a wrong, reused or expired proof (counted toward the lockout)', schema: errorResponses[400].schema },
      401: errorResponses[401],
      404: errorResponses[404],
      409: notScaCustomer,
      423: locked,
    },
    handler: async ({ em, caller, query, body, deps }) => ({
      status: 200,
      body: await completeScaLogin(em, {
        platformId: caller.platformId,
        customerId: query.customerId,
        factor: body.factor,
        proof: { code: body.code ?? null, passkeyAssertion: body.passkeyAssertion ?? null, origin: body.origin ?? null },
        challengeId: body.challengeId ?? null,
        endUserIpAddress: body.endUserIpAddress,
        environment: caller.environment,
        masterKey: deps.config.masterKey,
      }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/sca/record-event',
    operationId: 'recordSecurityEvent',
    summary: 'Record a security event',
    description:
      'FAILED_LOGIN_ATTEMPT climbs the lockout ladder (5 → 15 min … 9 → suspended); RESET_PASSWORD_COMPLETED revokes every SCA session and clears it',
    tags: TAGS,
    query: ScaCustomerQuery,
    body: RecordSecurityEventRequestSchema,
    responses: {
      200: { description: "The customer's lockout state after the event", schema: RecordSecurityEventResponseSchema },
      400: errorResponses[400],
      401: errorResponses[401],
      404: errorResponses[404],
      409: notScaCustomer,
      423: {
        description: 'ACCOUNT_LOCKED: a failed attempt reported while the customer is already locked out (not counted)',
        schema: errorResponses[400].schema,
      },
    },
    handler: async ({ em, caller, query, body }) => {
      const state = await recordSecurityEvent(em, { platformId: caller.platformId, customerId: query.customerId, eventType: body.eventType });
      return {
        status: 200,
        body: {
          eventType: state.eventType,
          suspended: state.suspended,
          lockedUntil: state.lockedUntil?.toISOString() ?? null,
          failedAttempts: state.failedAttempts,
        },
      };
    },
  }),
];

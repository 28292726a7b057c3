import { defineRoute } from '../../../api/route';
import { errorResponses } from '../../../api/schemas/common';
import { confirmPasskeyEnrollment, confirmTotpEnrollment, deleteScaFactor, listScaFactors, startEnrollment } from '../services/factors';
import {
  ScaCredentialParam,
  ScaCustomerQuery,
  ScaFactorConfirmRequestSchema,
  ScaFactorConfirmResponseSchema,
  ScaFactorEnrollRequestSchema,
  ScaFactorEnrollStartSchema,
  ScaFactorListSchema,
} from './schemas';

const TAGS = ['Strong Customer Authentication'];
export const notScaCustomer = {
  description: 'CONFLICT: SCA is not required for this customer (its provider is not in an SCA region)',
  schema: errorResponses[400].schema,
};
const sessionRequired = {
  description: 'CONFLICT: SCA is not required for this customer; SCA_SESSION_REQUIRED: the customer has no live SCA login session',
  schema: errorResponses[400].schema,
};

export const factorRoutes = [
  defineRoute({
    method: 'get',
    path: '/sca/factors',
    operationId: 'listScaFactors',
    summary: 'List enrolled SCA factors',
    description: "The customer's factors: SMS_OTP while its phone is verified, and the enrolled TOTP and passkey",
    tags: TAGS,
    query: ScaCustomerQuery,
    responses: {
      200: { description: "The customer's factors", schema: ScaFactorListSchema },
      401: errorResponses[401],
      404: errorResponses[404],
      409: notScaCustomer,
    },
    handler: async ({ em, caller, query }) => ({
      status: 200,
      body: { factors: await listScaFactors(em, { platformId: caller.platformId, customerId: query.customerId }) },
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/sca/factors',
    operationId: 'startScaFactorEnrollment',
    summary: 'Start SCA factor enrollment',
    description: 'TOTP: a shared secret and its otpauth:// URI; PASSKEY: WebAuthn registration options. Needs a live SCA session; one factor of each type',
    tags: TAGS,
    query: ScaCustomerQuery,
    body: ScaFactorEnrollRequestSchema,
    responses: {
      200: { description: 'What the device needs to finish enrolment', schema: ScaFactorEnrollStartSchema },
      400: errorResponses[400],
      401: errorResponses[401],
      404: errorResponses[404],
      409: {
        description: `${sessionRequired.description}; PASSKEY_ALREADY_ENROLLED; CONFLICT when a TOTP is already enrolled`,
        schema: errorResponses[400].schema,
      },
    },
    handler: async ({ em, caller, query, body, deps }) => ({
      status: 200,
      body: await startEnrollment(em, { platformId: caller.platformId, customerId: query.customerId, type: body.type, masterKey: deps.config.masterKey }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/sca/factors/confirm',
    operationId: 'confirmScaFactorEnrollment',
    summary: 'Confirm SCA factor enrollment',
    description:
      'TOTP: the secret and a current code (sandbox: also 123456), answered with one-time recovery codes; PASSKEY: the attestation, answered with the factor',
    tags: TAGS,
    query: ScaCustomerQuery,
    body: ScaFactorConfirmRequestSchema,
    responses: {
      200: { description: 'The factor is enrolled', schema: ScaFactorConfirmResponseSchema },
      400: { description: 'INVALID_INPUT: a wrong code, an attestation that does not verify, or no pending enrolment', schema: errorResponses[400].schema },
      401: errorResponses[401],
      404: errorResponses[404],
      409: { description: `${sessionRequired.description}; PASSKEY_ALREADY_ENROLLED`, schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, query, body, deps }) => {
      const target = { platformId: caller.platformId, customerId: query.customerId };
      const result =
        body.type === 'TOTP'
          ? await confirmTotpEnrollment(em, {
              ...target,
              secret: body.secret,
              code: body.code,
              environment: caller.environment,
              masterKey: deps.config.masterKey,
            })
          : await confirmPasskeyEnrollment(em, { ...target, origin: body.origin, credential: body.credential });
      return { status: 200, body: result };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/sca/factors/:credentialId',
    operationId: 'deleteScaFactor',
    summary: 'Delete an enrolled SCA factor',
    description: "Removes the customer's passkey by its credential id; needs a live SCA session",
    tags: TAGS,
    params: ScaCredentialParam,
    query: ScaCustomerQuery,
    responses: { 204: { description: 'Deleted' }, 401: errorResponses[401], 404: errorResponses[404], 409: sessionRequired },
    handler: async ({ em, caller, query, params }) => {
      await deleteScaFactor(em, { platformId: caller.platformId, customerId: query.customerId, credentialId: params.credentialId });
      return { status: 204 };
    },
  }),
];

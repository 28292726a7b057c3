import { verificationView } from '../services/verification-views';
import { createKycLink, findVerification, listVerifications, submitVerification } from '../services/verification-requests';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import {
  KycLinkCreateSchema,
  KycLinkSchema,
  VerificationListQuerySchema,
  VerificationListSchema,
  VerificationRequestSchema,
  VerificationSchema,
} from './verification-schemas';

const tags = ['KYC/KYB Verifications'];

export const verificationRoutes = [
  defineRoute({
    method: 'post',
    path: '/verifications',
    operationId: 'createVerification',
    summary: 'Submit customer for verification',
    description: 'Submit a customer for KYC/KYB; returns the verification with its status and itemised errors',
    tags,
    body: VerificationRequestSchema,
    responses: {
      200: {
        description: 'The verification: RESOLVE_ERRORS lists what is missing; IN_PROGRESS or PENDING_MANUAL_REVIEW resolve later',
        schema: VerificationSchema,
      },
      400: { description: 'Invalid input, or the customer is already APPROVED or REJECTED', schema: errorResponses[400].schema },
      401: errorResponses[401],
      404: { description: 'Customer not found', schema: errorResponses[404].schema },
    },
    handler: async ({ em, caller, body, deps }) => ({
      status: 200,
      body: await submitVerification(em, deps, { platformId: caller.platformId, environment: caller.environment, customerId: body.customerId }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/verifications',
    operationId: 'listVerifications',
    summary: 'List verifications',
    description: 'List verifications, newest first',
    tags,
    query: VerificationListQuerySchema,
    responses: { 200: { description: 'A page of verifications', schema: VerificationListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listVerifications(em, caller.platformId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/verifications/:verificationId',
    operationId: 'getVerification',
    summary: 'Get a verification',
    tags,
    params: IdParam('verificationId'),
    responses: { 200: { description: 'The verification', schema: VerificationSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({ status: 200, body: verificationView(await findVerification(em, caller.platformId, params.verificationId)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/customers/:customerId/kyc-link',
    operationId: 'createCustomerKycLink',
    summary: 'Generate a hosted KYC/KYB link for an existing customer',
    description: 'Create a single-use hosted KYC/KYB link (and a provider SDK token); the KYC status does not change',
    tags,
    params: IdParam('customerId'),
    body: KycLinkCreateSchema,
    idempotent: true,
    responses: {
      201: { description: 'A fresh link', schema: KycLinkSchema },
      400: errorResponses[400],
      401: errorResponses[401],
      404: { description: 'Customer not found', schema: errorResponses[404].schema },
      409: { description: "CONFLICT: the customer's contact details (email, phone) are not all VERIFIED yet", schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, params, body }) => ({ status: 201, body: await createKycLink(em, caller.platformId, params.customerId, body.redirectUri) }),
  }),
];

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Customer, KycLink, Verification } from '../entities';
import { DomainError } from '../../../domain/errors';
import { isTerminalKycStatus, SANDBOX_RESOLUTION_DELAY_SECONDS } from '../domain/verification-sandbox';
import { listPage } from '../../../services/listing';
import { verificationView } from '../services/verification-views';
import { verificationIdFor } from '../services/verifications';
import { submitCustomerVerification } from '../starters/customer-verification';
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

/** The simulated provider's hosted flow; links are single-use and expire. */
export const KYC_HOSTED_BASE_URL = 'https://kyc.sandbox.payments-service.example/onboard';
export const KYC_LINK_TTL_MS = 24 * 60 * 60 * 1000;

const alreadyDecided = (reason: string) => DomainError.invalidInput([{ field: 'customerId', constraint: 'notDecided', message: reason }], reason);

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
    handler: async ({ em, caller, body, deps }) => {
      const customer = await em.findOne(Customer, { id: body.customerId, platformId: caller.platformId, isDeleted: false });
      if (!customer) throw DomainError.notFound('Customer');
      if (isTerminalKycStatus(customer.kycStatus))
        throw alreadyDecided(`The customer's verification is already ${customer.kycStatus}; it cannot be submitted again`);
      return {
        status: 200,
        body: await submitCustomerVerification(
          deps.temporal,
          {
            verificationId: verificationIdFor(customer.id),
            platformId: caller.platformId,
            customerId: customer.id,
            environment: caller.environment,
            resolutionDelaySeconds: SANDBOX_RESOLUTION_DELAY_SECONDS,
          },
          { taskQueue: deps.taskQueue },
        ),
      };
    },
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
    handler: async ({ em, caller, query }) => {
      const where = {
        platformId: caller.platformId,
        ...(query.customerId ? { customerId: query.customerId } : {}),
        ...(query.verificationStatus ? { verificationStatus: query.verificationStatus } : {}),
      };
      return { status: 200, body: await listPage(em, Verification, where, query, (rows) => rows.map(verificationView)) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/verifications/:verificationId',
    operationId: 'getVerification',
    summary: 'Get a verification',
    tags,
    params: IdParam('verificationId'),
    responses: { 200: { description: 'The verification', schema: VerificationSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => {
      const verification = await em.findOne(Verification, { id: params.verificationId, platformId: caller.platformId });
      if (!verification) throw DomainError.notFound('Verification');
      return { status: 200, body: verificationView(verification) };
    },
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
    handler: async ({ em, caller, params, body }) => {
      const customer = await em.findOne(Customer, { id: params.customerId, platformId: caller.platformId, isDeleted: false });
      if (!customer) throw DomainError.notFound('Customer');
      const unverified = Object.entries(customer.contactVerification ?? {})
        .filter(([, state]) => state !== 'VERIFIED')
        .map(([channel]) => channel);
      if (unverified.length > 0) {
        throw new DomainError('CONFLICT', `Contact verification is not complete (${unverified.join(', ')}); verify it before starting KYC`, {
          unverifiedChannels: unverified,
        });
      }
      const linkToken = randomBytes(24).toString('base64url');
      const now = new Date();
      const expiresAt = new Date(now.getTime() + KYC_LINK_TTL_MS);
      em.create(KycLink, {
        id: `KycLink:${randomUUID()}`,
        platformId: caller.platformId,
        customerId: customer.id,
        tokenHash: createHash('sha256').update(linkToken).digest('hex'),
        redirectUri: body.redirectUri ?? null,
        expiresAt,
        usedAt: null,
        createdAt: now,
      });
      await em.flush();
      return {
        status: 201,
        body: {
          kycUrl: `${KYC_HOSTED_BASE_URL}/${linkToken}`,
          expiresAt: expiresAt.toISOString(),
          provider: 'SUMSUB',
          token: `_act-sbx-${randomBytes(24).toString('base64url')}`,
        },
      };
    },
  }),
];

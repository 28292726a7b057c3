import {
  createBeneficialOwner,
  findBeneficialOwner,
  listBeneficialOwners,
  ownerChangeProblems,
  ownerCreateProblems,
  updateBeneficialOwner,
} from '../services/beneficial-owners';
import { beneficialOwnerView } from '../services/verification-views';
import { announceReadiness } from './verification-readiness';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import {
  BeneficialOwnerCreateSchema,
  BeneficialOwnerListQuerySchema,
  BeneficialOwnerListSchema,
  BeneficialOwnerSchema,
  BeneficialOwnerUpdateSchema,
  wellFormedIdentity,
} from './verification-schemas';

const tags = ['KYC/KYB Verifications'];

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A share the schema accepts (whole percent, 0 to 100); anything else the schema reports. */
const validShare = (value: unknown): { ownershipPercentage?: number } =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 100 ? { ownershipPercentage: value } : {};

export const beneficialOwnerRoutes = [
  defineRoute({
    method: 'post',
    path: '/beneficial-owners',
    operationId: 'createBeneficialOwner',
    summary: 'Create a beneficial owner',
    description: 'Add a beneficial owner, director, officer or control person to a business customer',
    tags,
    body: BeneficialOwnerCreateSchema,
    // Rules that need stored data, reported together with the schema's errors.
    check: async ({ em, caller, body }) => {
      const raw = record(body);
      return ownerCreateProblems(em, caller.platformId, { customerId: raw.customerId, ...validShare(raw.ownershipPercentage) });
    },
    responses: {
      201: { description: 'Created; the identifier is stored encrypted and never returned', schema: BeneficialOwnerSchema },
      400: errorResponses[400],
      401: errorResponses[401],
      404: { description: 'Customer not found', schema: errorResponses[404].schema },
    },
    handler: async ({ em, caller, body, deps }) => {
      const owner = await createBeneficialOwner(em, deps.config.masterKey, caller.platformId, body);
      await announceReadiness(em, deps, caller, owner.customerId);
      return { status: 201, body: beneficialOwnerView(owner) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/beneficial-owners',
    operationId: 'listBeneficialOwners',
    summary: 'List beneficial owners',
    description: 'List the beneficial owners of one business customer, newest first',
    tags,
    query: BeneficialOwnerListQuerySchema,
    responses: { 200: { description: 'A page of beneficial owners', schema: BeneficialOwnerListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listBeneficialOwners(em, caller.platformId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/beneficial-owners/:beneficialOwnerId',
    operationId: 'getBeneficialOwner',
    summary: 'Get a beneficial owner',
    tags,
    params: IdParam('beneficialOwnerId'),
    responses: { 200: { description: 'The beneficial owner', schema: BeneficialOwnerSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({
      status: 200,
      body: beneficialOwnerView(await findBeneficialOwner(em, caller.platformId, params.beneficialOwnerId)),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/beneficial-owners/:beneficialOwnerId',
    operationId: 'updateBeneficialOwner',
    summary: 'Update a beneficial owner',
    description: 'Update a beneficial owner; only the fields sent change',
    tags,
    params: IdParam('beneficialOwnerId'),
    body: BeneficialOwnerUpdateSchema,
    // The identity rules and the shares are judged with what is stored, together with the schema's errors.
    check: async ({ em, caller, params, body }) => {
      const owner = await findBeneficialOwner(em, caller.platformId, params.beneficialOwnerId);
      const raw = record(body);
      const info = record(raw.personalInfo);
      return ownerChangeProblems(em, owner, {
        ...validShare(raw.ownershipPercentage),
        identity: wellFormedIdentity(info),
        identifierSent: info.identifier !== undefined,
      });
    },
    responses: {
      200: { description: 'The updated beneficial owner', schema: BeneficialOwnerSchema },
      400: errorResponses[400],
      401: errorResponses[401],
      404: errorResponses[404],
    },
    handler: async ({ em, caller, params, body, deps }) => {
      const owner = await updateBeneficialOwner(em, deps.config.masterKey, caller.platformId, params.beneficialOwnerId, body);
      await announceReadiness(em, deps, caller, owner.customerId);
      return { status: 200, body: beneficialOwnerView(owner) };
    },
  }),
];

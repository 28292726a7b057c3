import { defineRoute } from '../../../api/route';
import { errorResponses } from '../../../api/schemas/common';
import { DomainError } from '../../../domain/errors';
import { isUmaAddress } from '../../customers';
import { assertInvitationsConfigured, cancelInvitation, claimInvitation, createInvitation, getInvitation, inviterProblems } from '../services/invitations';
import { InvitationClaimSchema, InvitationCodeParam, InvitationCreateSchema, InvitationSchema } from './schemas';

const TAGS = ['Invitations'];
const bad = (description: string) => ({ description, schema: errorResponses[400].schema });

export const invitationRoutes = [
  defineRoute({
    method: 'post',
    path: '/invitations',
    operationId: 'createInvitation',
    summary: 'Create an UMA invitation',
    description: "Invite someone on behalf of one of the platform's customers",
    tags: TAGS,
    body: InvitationCreateSchema,
    // Not configured comes first; a wrong inviterUma alone is INVALID_UMA_ADDRESS, with other
    // invalid fields it is listed among them in an INVALID_INPUT.
    check: async ({ em, caller, body }) => {
      await assertInvitationsConfigured(em, caller.platformId);
      const uma = (body as { inviterUma?: unknown } | null)?.inviterUma;
      const problems =
        typeof uma === 'string' && !isUmaAddress(uma)
          ? [{ field: 'inviterUma', constraint: 'pattern', message: 'must be a UMA address such as $alice@uma.example.com' }]
          : await inviterProblems(em, caller.platformId, body);
      if (problems.length > 0 && InvitationCreateSchema.safeParse(body).success) {
        throw new DomainError('INVALID_UMA_ADDRESS', `inviterUma ${problems[0]!.message}`, { errors: problems });
      }
      return problems;
    },
    responses: {
      201: { description: 'The invitation (PENDING)', schema: InvitationSchema },
      400: bad(
        'INVALID_INPUT (every invalid field; inviterUma with rule domain: an address on none of the platform’s UMA domains), INVALID_UMA_ADDRESS (inviterUma malformed or not one of the platform’s customers), INVITATIONS_NOT_CONFIGURED (the platform has no umaDomain)',
      ),
      401: errorResponses[401],
    },
    handler: async ({ em, caller, body, deps }) => ({
      status: 201,
      body: await createInvitation(em, { temporal: deps.temporal, taskQueue: deps.taskQueue }, caller, body),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/invitations/:invitationCode',
    operationId: 'getInvitation',
    summary: 'Get an UMA invitation by code',
    tags: TAGS,
    params: InvitationCodeParam,
    responses: { 200: { description: 'The invitation', schema: InvitationSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({ status: 200, body: await getInvitation(em, caller.platformId, params.invitationCode) }),
  }),
  defineRoute({
    method: 'post',
    path: '/invitations/:invitationCode/claim',
    operationId: 'claimInvitation',
    summary: 'Claim an UMA invitation',
    description: 'Claim an invitation for an invitee UMA address (INVITATION.CLAIMED follows)',
    tags: TAGS,
    params: InvitationCodeParam,
    body: InvitationClaimSchema,
    responses: {
      200: { description: 'The claimed invitation', schema: InvitationSchema },
      400: bad('INVALID_UMA_ADDRESS, INVITATION_ALREADY_CLAIMED, INVITATION_CANCELLED, INVALID_INPUT (expired: field invitationCode)'),
      401: errorResponses[401],
      404: errorResponses[404],
    },
    handler: async ({ em, caller, params, body, deps }) => ({
      status: 200,
      body: await claimInvitation(em, { temporal: deps.temporal, taskQueue: deps.taskQueue }, caller.platformId, params.invitationCode, body.inviteeUma),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/invitations/:invitationCode/cancel',
    operationId: 'cancelInvitation',
    summary: 'Cancel an UMA invitation',
    description: 'Cancel a PENDING invitation',
    tags: TAGS,
    params: InvitationCodeParam,
    responses: {
      200: { description: 'The cancelled invitation', schema: InvitationSchema },
      400: bad('INVITATION_ALREADY_CLAIMED, INVITATION_CANCELLED, INVALID_INPUT (expired: field invitationCode)'),
      401: errorResponses[401],
      404: errorResponses[404],
    },
    handler: async ({ em, caller, params, deps }) => ({
      status: 200,
      body: await cancelInvitation(em, { temporal: deps.temporal, taskQueue: deps.taskQueue }, caller.platformId, params.invitationCode),
    }),
  }),
];

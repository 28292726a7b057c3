import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { findProviderAccount, linkProviderAccount, listProviderAccounts } from '../services/provider-accounts';
import { providerAccountView } from '../services/stablecoin-views';
import { ProviderAccountLinkSchema, ProviderAccountListQuerySchema, ProviderAccountListSchema, ProviderAccountSchema } from './schemas';

const TAGS = ['Stablecoins'];
const bad = (description: string) => ({ description, schema: errorResponses[400].schema });

export const providerAccountRoutes = [
  defineRoute({
    method: 'post',
    path: '/stablecoin-provider-accounts',
    operationId: 'linkStablecoinProviderAccount',
    summary: 'Link a stablecoin provider account',
    description: 'Link stablecoin provider (BRALE) API credentials; the provider must accept them. The secret is sealed and never shown again',
    tags: TAGS,
    body: ProviderAccountLinkSchema,
    idempotent: 'required',
    responses: {
      201: { description: 'The link (ACTIVE)', schema: ProviderAccountSchema },
      400: bad(
        'INVALID_INPUT (every invalid field; providerAccountId when the credentials reach several accounts), STABLECOIN_VERIFICATION_FAILED (credentials not accepted, or not for the account named), STABLECOIN_PROVIDER_ERROR',
      ),
      401: errorResponses[401],
      409: bad('CONFLICT: the provider account is already linked (revoke that link first)'),
      501: bad('NOT_IMPLEMENTED: no provider connection outside the sandbox'),
      503: bad('SERVICE_UNAVAILABLE: the provider is out of reach'),
    },
    handler: async ({ em, caller, body, deps, idempotencyKey }) => ({
      status: 201,
      body: await linkProviderAccount(em, deps.config.masterKey, caller, body, idempotencyKey!),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/stablecoin-provider-accounts',
    operationId: 'listStablecoinProviderAccounts',
    summary: 'List stablecoin provider account links',
    description: 'List provider account links, newest first, by provider and status',
    tags: TAGS,
    query: ProviderAccountListQuerySchema,
    responses: { 200: { description: 'A page of links', schema: ProviderAccountListSchema }, 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listProviderAccounts(em, caller.platformId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/stablecoin-provider-accounts/:stablecoinProviderAccountId',
    operationId: 'getStablecoinProviderAccount',
    summary: 'Get a stablecoin provider account link',
    tags: TAGS,
    params: IdParam('stablecoinProviderAccountId'),
    responses: { 200: { description: 'The link', schema: ProviderAccountSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({
      status: 200,
      body: providerAccountView(await findProviderAccount(em, caller.platformId, params.stablecoinProviderAccountId)),
    }),
  }),
];

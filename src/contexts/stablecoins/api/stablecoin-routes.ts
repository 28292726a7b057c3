import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { findStablecoin, listStablecoins, requestEnablement } from '../services/stablecoins';
import { registerAndIssueStablecoin } from '../services/stablecoin-registration';
import { stablecoinView } from '../services/stablecoin-views';
import { StablecoinListQuerySchema, StablecoinListSchema, StablecoinRegisterSchema, StablecoinSchema } from './schemas';

const TAGS = ['Stablecoins'];
const bad = (description: string) => ({ description, schema: errorResponses[400].schema });
const StablecoinIdParams = IdParam('stablecoinId');

export const stablecoinRoutes = [
  defineRoute({
    method: 'post',
    path: '/stablecoins',
    operationId: 'registerStablecoin',
    summary: 'Register an existing provider-created stablecoin',
    description: 'Register a token the provider created for the platform; it starts PENDING_REVIEW while the provider reviews and provisions it',
    tags: TAGS,
    body: StablecoinRegisterSchema,
    idempotent: 'required',
    responses: {
      201: { description: 'The stablecoin (PENDING_REVIEW, NOT_ENABLED)', schema: StablecoinSchema },
      400: bad(
        'INVALID_INPUT, STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED (several ACTIVE links: name one), STABLECOIN_PROVIDER_ACCOUNT_INVALID, STABLECOIN_PROVIDER_ACCOUNT_REVOKED, STABLECOIN_VERIFICATION_FAILED (the provider has no such token, or reports another network identifier), STABLECOIN_PROVIDER_ERROR',
      ),
      401: errorResponses[401],
      404: bad('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND: the link named is unknown, or the platform has no ACTIVE link'),
      409: bad('STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS, STABLECOIN_SYMBOL_ALREADY_EXISTS'),
      501: bad('NOT_IMPLEMENTED: no provider connection outside the sandbox'),
      503: bad('SERVICE_UNAVAILABLE: the provider is out of reach'),
    },
    handler: async ({ em, caller, body, deps, idempotencyKey }) => {
      const engine = { temporal: deps.temporal, masterKey: deps.config.masterKey, ...(deps.taskQueue ? { taskQueue: deps.taskQueue } : {}) };
      const coin = await registerAndIssueStablecoin(em, engine, caller, body, idempotencyKey!);
      return { status: 201, body: stablecoinView(coin) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/stablecoins',
    operationId: 'listStablecoins',
    summary: 'List stablecoins',
    description: 'List registered stablecoins, newest first, by issuance status, grid operations status and provider',
    tags: TAGS,
    query: StablecoinListQuerySchema,
    responses: { 200: { description: 'A page of stablecoins', schema: StablecoinListSchema }, 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listStablecoins(em, caller.platformId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/stablecoins/:stablecoinId',
    operationId: 'getStablecoin',
    summary: 'Get a stablecoin',
    tags: TAGS,
    params: StablecoinIdParams,
    responses: { 200: { description: 'The stablecoin', schema: StablecoinSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({ status: 200, body: stablecoinView(await findStablecoin(em, caller.platformId, params.stablecoinId)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/stablecoins/:stablecoinId/grid-enablement',
    operationId: 'requestStablecoinGridEnablement',
    summary: 'Request enablement of a stablecoin',
    description:
      'Ask for the stablecoin to be enabled for grid operations (spec §3): NOT_ENABLED → PENDING_APPROVAL; asking again while PENDING_APPROVAL succeeds. The operator sets every later state',
    tags: TAGS,
    params: StablecoinIdParams,
    responses: {
      200: { description: 'The stablecoin, PENDING_APPROVAL', schema: StablecoinSchema },
      400: bad('STABLECOIN_NOT_PROVISIONED'),
      401: errorResponses[401],
      404: errorResponses[404],
      409: bad('STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE: ENABLING, ENABLED and DISABLED are the operator’s'),
    },
    handler: async ({ em, caller, params }) => ({ status: 200, body: await requestEnablement(em, caller.platformId, params.stablecoinId) }),
  }),
];

import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { createOperation, findOperation, listOperations } from '../services/operations';
import { fundOperation, submittedOperation } from '../services/operation-submission';
import { operationView } from '../services/stablecoin-views';
import { BurnRequestSchema, MintRequestSchema, OperationListQuerySchema, StablecoinOperationListSchema, StablecoinOperationSchema } from './schemas';

const TAGS = ['Stablecoins'];
const bad = (description: string) => ({ description, schema: errorResponses[400].schema });
const StablecoinIdParams = IdParam('stablecoinId');
const OperationIdParams = IdParam('stablecoinOperationId');

const COMMON_REFUSALS =
  'INVALID_INPUT, STABLECOIN_NOT_PROVISIONED, STABLECOIN_PROVIDER_ACCOUNT_INVALID, STABLECOIN_PROVIDER_ACCOUNT_REVOKED, STABLECOIN_AMOUNT_NOT_REPRESENTABLE (not a whole cent), STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED, STABLECOIN_EXTERNAL_ACCOUNT_NOT_LINKED, STABLECOIN_EXTERNAL_ACCOUNT_LINK_FAILED, STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_FAILED, STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_REQUIRED, STABLECOIN_GRID_OPERATIONS_NOT_ENABLED, STABLECOIN_PROVIDER_ERROR (the provider refused it; the operation is FAILED)';

export const operationRoutes = [
  defineRoute({
    method: 'post',
    path: '/stablecoins/:stablecoinId/mints',
    operationId: 'createStablecoinMint',
    summary: 'Create a stablecoin mint operation',
    description:
      'Mint: a wire-funded mint answers PENDING_FUNDING with funding instructions and waits for the wire until expiresAt; others go to the provider at once',
    tags: TAGS,
    params: StablecoinIdParams,
    body: MintRequestSchema,
    idempotent: 'required',
    permission: 'TRANSACT',
    responses: {
      201: { description: 'The mint, submitted to the provider', schema: StablecoinOperationSchema },
      400: bad(
        `${COMMON_REFUSALS}, STABLECOIN_EXTERNAL_ACCOUNT_LINK_METHOD_REQUIRED (ACH debit from an account without bankAccountType), STABLECOIN_PROVIDER_SOURCE_NOT_LINKED, STABLECOIN_OPERATION_NOT_SUPPORTED`,
      ),
      401: errorResponses[401],
      404: errorResponses[404],
      501: bad('NOT_IMPLEMENTED: no provider connection outside the sandbox'),
      503: bad('SERVICE_UNAVAILABLE: the provider is out of reach'),
    },
    handler: async ({ em, caller, params, body, deps, idempotencyKey }) => {
      const { operation } = await createOperation(em, deps.config.masterKey, caller, params.stablecoinId, 'MINT', body, idempotencyKey!);
      return { status: 201, body: await submittedOperation(em, deps, operation) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/stablecoins/:stablecoinId/burns',
    operationId: 'createStablecoinBurn',
    summary: 'Create a stablecoin burn operation',
    description:
      'Burn (redeem) for fiat to a bank account: from an external wallet it answers PENDING_FUNDING with the deposit address and waits for the tokens until expiresAt',
    tags: TAGS,
    params: StablecoinIdParams,
    body: BurnRequestSchema,
    idempotent: 'required',
    permission: 'TRANSACT',
    responses: {
      201: { description: 'The burn, submitted to the provider', schema: StablecoinOperationSchema },
      400: bad(`${COMMON_REFUSALS}, STABLECOIN_BURN_SOURCE_NOT_SUPPORTED, INSUFFICIENT_FUNDS (more than the outstanding supply not already being burned)`),
      401: errorResponses[401],
      404: errorResponses[404],
      501: bad('NOT_IMPLEMENTED: no provider connection outside the sandbox'),
      503: bad('SERVICE_UNAVAILABLE: the provider is out of reach'),
    },
    handler: async ({ em, caller, params, body, deps, idempotencyKey }) => {
      const { operation } = await createOperation(em, deps.config.masterKey, caller, params.stablecoinId, 'BURN', body, idempotencyKey!);
      return { status: 201, body: await submittedOperation(em, deps, operation) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/stablecoins/:stablecoinId/operations',
    operationId: 'listStablecoinOperations',
    summary: 'List stablecoin issuer operations',
    description: 'List the mints and burns of a stablecoin, newest first',
    tags: TAGS,
    params: StablecoinIdParams,
    query: OperationListQuerySchema,
    responses: { 200: { description: 'A page of operations', schema: StablecoinOperationListSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params, query }) => ({ status: 200, body: await listOperations(em, caller.platformId, params.stablecoinId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/stablecoin-operations/:stablecoinOperationId',
    operationId: 'getStablecoinOperation',
    summary: 'Get a stablecoin issuer operation',
    description: 'Get one mint or burn',
    tags: TAGS,
    params: OperationIdParams,
    responses: { 200: { description: 'The operation', schema: StablecoinOperationSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({ status: 200, body: operationView(await findOperation(em, caller.platformId, params.stablecoinOperationId)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/sandbox/stablecoin-operations/:stablecoinOperationId/fund',
    operationId: 'sandboxFundStablecoinOperation',
    summary: 'Simulate funding a stablecoin operation',
    description: 'Sandbox: the wire (mint) or the tokens (burn) a PENDING_FUNDING operation waits for arrive at the provider',
    tags: ['Sandbox'],
    params: OperationIdParams,
    sandboxOnly: true,
    permission: 'TRANSACT',
    responses: {
      200: { description: 'The operation, PENDING_PROVIDER', schema: StablecoinOperationSchema },
      401: errorResponses[401],
      404: errorResponses[404],
      409: bad('INVALID_STATE_TRANSITION: the operation does not wait for funds (or its window closed)'),
    },
    handler: async ({ em, caller, params, deps }) => ({ status: 200, body: await fundOperation(em, deps, caller.platformId, params.stablecoinOperationId) }),
  }),
];

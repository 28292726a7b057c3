import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { deleteToken, getToken, issueToken, listTokens } from '../services/tokens';
import { ApiTokenCreateSchema, ApiTokenSchema, TokenListQuerySchema, TokenListSchema } from './token-schemas';

const TAGS = ['API Tokens'];
const TokenIdParam = IdParam('tokenId');

/** The platform's API tokens (MANAGE to create and delete; VIEW to read). */
export const tokenRoutes = [
  defineRoute({
    method: 'post',
    path: '/tokens',
    operationId: 'createToken',
    summary: 'Create a new API token',
    description: 'Create an API token; its client secret is in this answer only',
    tags: TAGS,
    body: ApiTokenCreateSchema,
    // A client that lost the answer retries with its key and gets the same token and secret,
    // instead of minting a second token it cannot use; the stored answer is encrypted.
    idempotent: true,
    sealedReplay: true,
    responses: {
      201: {
        description: 'The token, with its clientSecret (shown once; a repeat with the same Idempotency-Key shows the same token and secret)',
        schema: ApiTokenSchema,
      },
      400: errorResponses[400],
      401: errorResponses[401],
    },
    handler: async ({ em, caller, body, deps }) => ({ status: 201, body: await issueToken(em, deps.config.masterKey, caller, body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/tokens',
    operationId: 'listTokens',
    summary: 'List tokens',
    description: "List the platform's API tokens, newest first",
    tags: TAGS,
    query: TokenListQuerySchema,
    responses: { 200: { description: 'One page of tokens', schema: TokenListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listTokens(em, caller.platformId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/tokens/:tokenId',
    operationId: 'getTokenById',
    summary: 'Get API token by ID',
    description: 'Get an API token (never its secret)',
    tags: TAGS,
    params: TokenIdParam,
    responses: { 200: { description: 'The token', schema: ApiTokenSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({ status: 200, body: await getToken(em, caller.platformId, params.tokenId) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/tokens/:tokenId',
    operationId: 'deleteTokenById',
    summary: 'Delete API token by ID',
    description: 'Revoke an API token: every later request with it is refused',
    tags: TAGS,
    params: TokenIdParam,
    responses: {
      204: { description: 'Revoked' },
      400: { description: "INVALID_INPUT: the platform's last token cannot be deleted", schema: errorResponses[400].schema },
      401: errorResponses[401],
      404: errorResponses[404],
    },
    handler: async ({ em, caller, params }) => {
      await deleteToken(em, caller.platformId, params.tokenId);
      return { status: 204 };
    },
  }),
];

import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { signedCallOf, walletSignatureHeadersOf, WalletSignatureHeadersSchema } from '../../../api/wallet-signature';
import { SignedRequest } from '../../wallet-auth';
import {
  DelegatedKeyChallengeSchema,
  DelegatedKeyCreateSchema,
  DelegatedKeyListQuerySchema,
  DelegatedKeyListSchema,
  DelegatedKeySchema,
} from '../schemas/delegated-key-schemas';
import { createDelegatedKeyLeg } from '../services/delegated-key-operations';
import { delegatedKeyView, findDelegatedKey, listDelegatedKeys, revokeDelegatedKey } from '../services/delegated-keys';

const TAGS = ['Embedded Wallet Auth'];
const DelegatedKeyIdParams = IdParam('id');

/**
 * Card signing keys the service holds for embedded wallets: created by the wallet owner's
 * three-leg signed flow; listed, read and revoked by the platform (no wallet signature). They
 * live in the cards context (a card's key, checked against the card's funding sources), which
 * uses wallet-auth's signed-request mechanism through its face.
 */
export const delegatedKeyRoutes = [
  defineRoute({
    method: 'post',
    path: '/auth/delegated-keys',
    operationId: 'createDelegatedKey',
    summary: 'Create a delegated signing key',
    description:
      'Three legs: 202 with a payload to sign; the signed retry creates the key PENDING and answers a second 202; that one signed and retried makes it ACTIVE (201)',
    tags: TAGS,
    body: DelegatedKeyCreateSchema,
    headers: WalletSignatureHeadersSchema,
    responses: {
      201: { description: 'ACTIVE (the third leg)', schema: DelegatedKeySchema },
      202: { description: 'Sign payloadToSign and retry the same request with Svc-Wallet-Signature and Request-Id', schema: DelegatedKeyChallengeSchema },
      400: errorResponses[400],
      401: { description: 'UNAUTHORIZED or a signed-retry failure (WALLET_SIGNATURE_*, REQUEST_ID_MISSING)', schema: errorResponses[400].schema },
      404: errorResponses[404],
      409: {
        description: 'CONFLICT: the card funding source has an ACTIVE key; WALLET_NOT_PROVISIONED; OPERATION_IN_PROGRESS',
        schema: errorResponses[400].schema,
      },
    },
    handler: async ({ em, caller, body, req, deps }) => {
      const { requestId } = walletSignatureHeadersOf(req);
      const pending = requestId ? await em.findOne(SignedRequest, { id: requestId, platformId: caller.platformId }, { fields: ['operation'] }) : null;
      const outcome = await createDelegatedKeyLeg(em, deps.config.masterKey, signedCallOf(req, caller, body.internalAccountId), body, pending?.operation);
      return outcome.status === 'ACTIVE' ? { status: 201, body: outcome.key } : { status: 202, body: outcome.challenge };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/auth/delegated-keys',
    operationId: 'listDelegatedKeys',
    summary: 'List delegated signing keys',
    description: 'The delegated keys of a wallet account and/or a card funding source (at least one), oldest first; not paginated',
    tags: TAGS,
    query: DelegatedKeyListQuerySchema,
    responses: { 200: { description: 'The keys', schema: DelegatedKeyListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: { data: (await listDelegatedKeys(em, caller.platformId, query)).map(delegatedKeyView) } }),
  }),
  defineRoute({
    method: 'get',
    path: '/auth/delegated-keys/:id',
    operationId: 'getDelegatedKeyById',
    summary: 'Get a delegated signing key',
    tags: TAGS,
    params: DelegatedKeyIdParams,
    responses: { 200: { description: 'The key', schema: DelegatedKeySchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => ({ status: 200, body: delegatedKeyView(await findDelegatedKey(em, caller.platformId, params.id)) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/auth/delegated-keys/:id',
    operationId: 'revokeDelegatedKey',
    summary: 'Revoke a delegated signing key',
    description: 'ACTIVE → REVOKED: the wallet no longer funds card authorizations with it. No wallet signature is needed',
    tags: TAGS,
    params: DelegatedKeyIdParams,
    responses: {
      204: { description: 'Revoked' },
      400: { description: 'INVALID_INPUT: the key is not ACTIVE', schema: errorResponses[400].schema },
      401: errorResponses[401],
      404: errorResponses[404],
    },
    handler: async ({ em, caller, params }) => {
      await revokeDelegatedKey(em, caller.platformId, params.id);
      return { status: 204 };
    },
  }),
];

import { defineRoute } from '../../../api/route';
import { errorResponses } from '../../../api/schemas/common';
import { walletCallOf, WalletSignatureHeadersSchema } from '../../../api/wallet-signature';
import { listSessions, refreshSession, revokeSession } from '../services/sessions';
import { challenge202, signed401, signedReply } from './responses';
import { AccountQuerySchema, AuthSessionRefreshSchema, AuthSessionSchema, SessionIdParam, SessionListSchema, SignedRequestChallengeSchema } from './schemas';

const TAGS = ['Embedded Wallet Auth'];

export const sessionRoutes = [
  defineRoute({
    method: 'get',
    path: '/auth/sessions',
    operationId: 'listAuthSessions',
    summary: 'List active sessions',
    description: "The active sessions of one of the platform's embedded wallets (not paginated; never their keys)",
    tags: TAGS,
    query: AccountQuerySchema,
    responses: { 200: { description: 'The active sessions', schema: SessionListSchema }, 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: { data: await listSessions(em, caller.platformId, query.accountId) } }),
  }),
  defineRoute({
    method: 'delete',
    path: '/auth/sessions/:id',
    operationId: 'revokeAuthSession',
    summary: 'Revoke an authentication session',
    description: 'Signed by any active session of the wallet, itself included (log-out): 202, then the signed retry',
    tags: TAGS,
    params: SessionIdParam,
    headers: WalletSignatureHeadersSchema,
    responses: { 202: challenge202, 204: { description: 'Revoked' }, 401: signed401, 404: errorResponses[404] },
    handler: async ({ em, caller, params, req }) => {
      const { type, outcome } = await revokeSession(em, walletCallOf(req, caller), params.id);
      return signedReply(outcome, type, () => ({ status: 204 }));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/sessions/:id/refresh',
    operationId: 'refreshAuthSession',
    summary: 'Refresh an authentication session',
    description:
      'Rotates the session key: stamped by the session itself (202, then the signed retry), which it closes; a new session of its credential opens with clientPublicKey',
    tags: TAGS,
    params: SessionIdParam,
    body: AuthSessionRefreshSchema,
    headers: WalletSignatureHeadersSchema,
    responses: {
      201: { description: 'The new session', schema: AuthSessionSchema },
      202: { description: challenge202.description, schema: SignedRequestChallengeSchema },
      401: { description: `The session is no longer active, or: ${signed401.description}`, schema: errorResponses[401].schema },
      404: errorResponses[404],
    },
    handler: async ({ em, caller, params, body, req }) => {
      const outcome = await refreshSession(em, walletCallOf(req, caller), params.id, body.clientPublicKey);
      return outcome.status === 'CHALLENGE' ? { status: 202, body: outcome.challenge } : { status: 201, body: outcome.result };
    },
  }),
];

import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { signedCallOf, WalletSignatureHeadersSchema } from '../../../api/wallet-signature';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../../api/context';
import { DomainError } from '../../../domain/errors';
import { InternalAccount, InternalAccountSchema } from '../../ledger';
import { runSignedOperation } from '../services/signed-requests';
import { requireWallet } from '../services/wallets';
import { walletExportOperation, walletPrivacyOperation } from '../services/wallet-account-operations';
import { InternalAccountExportResponseSchema, InternalAccountExportSchema, InternalAccountUpdateSchema } from '../schemas/wallet-account-schemas';
import { SignedRequestChallengeSchema } from './schemas';

/**
 * The two signed operations on an embedded wallet's internal account. Their paths are the
 * Internal Accounts tag's, but they live here, in wallet-auth: their rule is the owner's
 * signature (this context's mechanism), and wallet-auth sits above the ledger, which it may read
 * and update through its face; the ledger may not import wallet-auth.
 */
const AccountIdParams = IdParam('id');
const TAGS = ['Internal Accounts'];
/** Another platform's account (or none) is 404 before its body is judged, as an unknown id is. */
const accountOfPlatform = async ({ em, caller, params }: { em: EntityManager; caller: Caller; params: Record<string, string> }) => {
  if (!(await em.count(InternalAccount, { id: params.id ?? '', platformId: caller.platformId }))) throw DomainError.notFound('InternalAccount');
  return [];
};
const signedFailures = {
  401: {
    description: 'UNAUTHORIZED, or a signed-retry failure: WALLET_SIGNATURE_MISSING, _MALFORMED, _BODY_MISMATCH, _INVALID, REQUEST_ID_MISSING',
    schema: errorResponses[400].schema,
  },
  404: errorResponses[404],
  409: {
    description: 'WALLET_NOT_PROVISIONED: the account is no embedded wallet; OPERATION_IN_PROGRESS: another change waits for its signature',
    schema: errorResponses[400].schema,
  },
};

export const walletAccountRoutes = [
  defineRoute({
    method: 'patch',
    path: '/internal-accounts/:id',
    operationId: 'updateInternalAccount',
    summary: 'Update internal account',
    description: "Toggle an embedded wallet's privateEnabled: 202 with the payload to sign, then the same request signed by a session of the wallet: 200",
    tags: TAGS,
    params: AccountIdParams,
    body: InternalAccountUpdateSchema,
    headers: WalletSignatureHeadersSchema,
    check: accountOfPlatform,
    responses: {
      200: { description: 'Updated (the signed retry)', schema: InternalAccountSchema },
      202: { description: 'Sign payloadToSign and retry the same request with Svc-Wallet-Signature and Request-Id', schema: SignedRequestChallengeSchema },
      400: errorResponses[400],
      ...signedFailures,
    },
    handler: async ({ em, caller, params, body, req }) => {
      const outcome = await runSignedOperation(
        em,
        signedCallOf(req, caller, params.id),
        walletPrivacyOperation(caller.platformId, params.id, body.privateEnabled!),
      );
      return outcome.status === 'CHALLENGE' ? { status: 202, body: outcome.challenge } : { status: 200, body: outcome.result };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/internal-accounts/:id/export',
    operationId: 'exportInternalAccount',
    summary: 'Export internal account wallet credentials',
    description:
      "The wallet's credentials, HPKE-sealed to clientPublicKey: 202 with the payload to sign, then the same request signed by a session of the wallet: 200",
    tags: TAGS,
    params: AccountIdParams,
    body: InternalAccountExportSchema,
    headers: WalletSignatureHeadersSchema,
    check: accountOfPlatform,
    responses: {
      200: { description: 'The sealed export (the signed retry)', schema: InternalAccountExportResponseSchema },
      202: { description: 'Sign payloadToSign and retry the same request with Svc-Wallet-Signature and Request-Id', schema: SignedRequestChallengeSchema },
      400: errorResponses[400],
      ...signedFailures,
    },
    handler: async ({ em, caller, params, body, req, deps }) => {
      const wallet = await requireWallet(em, caller.platformId, params.id);
      const outcome = await runSignedOperation(
        em,
        signedCallOf(req, caller, params.id),
        walletExportOperation(deps.config.masterKey, wallet, body.clientPublicKey.toLowerCase()),
      );
      return outcome.status === 'CHALLENGE' ? { status: 202, body: outcome.challenge } : { status: 200, body: outcome.result };
    },
  }),
];

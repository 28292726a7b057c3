import type { ApiDeps } from '../../../api/context';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { basePath } from '../../../config';
import {
  deleteExternalAccount,
  findExternalAccount,
  listExternalAccounts,
  registrationProblemsOf,
  type NewExternalAccount,
  type Owner,
} from '../services/external-accounts';
import { externalAccountView } from '../services/external-account-views';
import { registerExternalAccountFor } from '../services/account-registration';
import { openAccountOwnershipChallenge, submitAccountOwnershipSignature } from '../services/ownership-challenges';
import {
  ExternalAccountCreateSchema,
  ExternalAccountListQuerySchema,
  ExternalAccountListSchema,
  ExternalAccountSchema,
  OwnershipChallengeRequestSchema,
  OwnershipChallengeSchema,
  OwnershipVerifyRequestSchema,
  PlatformExternalAccountCreateSchema,
  PlatformExternalAccountListQuerySchema,
} from '../schemas/external-account-schemas';

const TAGS = ['External Accounts'];
const AccountIdParams = IdParam('externalAccountId');
const conflict = (description: string) => ({ description, schema: errorResponses[400].schema });

/** Where the sandbox's stand-in for the hosted liveness flow is completed. */
export function livenessLink(deps: ApiDeps, accountId: string): string {
  return `${deps.config.publicBaseUrl.replace(/\/+$/, '')}${basePath(deps.config.apiPrefix)}/sandbox/external-accounts/${encodeURIComponent(accountId)}/liveness`;
}

/**
 * The six operations on one owner's accounts: a platform's customers (`/customers/…`, with
 * `customerId`) or the platform itself (`/platform/…`, `customerId` null). Each prefix sees only
 * its own kind of account.
 */
function accountRoutes(owner: Owner) {
  const base = owner === 'CUSTOMER' ? '/customers/external-accounts' : '/platform/external-accounts';
  const name = (customer: string, platform: string) => (owner === 'CUSTOMER' ? customer : platform);
  const whose = owner === 'CUSTOMER' ? "a customer's" : "the platform's own";
  return [
    defineRoute({
      method: 'post',
      path: base,
      operationId: name('createCustomerExternalAccount', 'createPlatformExternalAccount'),
      summary: name('Add a new external account', 'Add a new platform external account'),
      description: `Register ${whose} bank account or wallet`,
      tags: TAGS,
      body: owner === 'CUSTOMER' ? ExternalAccountCreateSchema : PlatformExternalAccountCreateSchema,
      idempotent: true,
      check: async ({ em, caller, body }) => registrationProblemsOf(em, caller.platformId, body as Partial<NewExternalAccount>),
      responses: {
        201: { description: 'Registered', schema: ExternalAccountSchema },
        400: {
          description: 'INVALID_INPUT (every invalid field listed) or INVALID_BANK_ACCOUNT (the receiving institution rejected the account)',
          schema: errorResponses[400].schema,
        },
        401: errorResponses[401],
        404: { description: 'USER_NOT_FOUND: no such customer (customer accounts)', schema: errorResponses[404].schema },
        409: conflict('DUPLICATE_EXTERNAL_ACCOUNT: this owner already has this account (details.existingAccountId)'),
      },
      handler: async ({ em, caller, body, deps, idempotencyKey }) => {
        const account = await registerExternalAccountFor(em, deps, {
          platformId: caller.platformId,
          environment: caller.environment,
          owner,
          body: body as NewExternalAccount,
          ...(idempotencyKey ? { idempotencyKey } : {}),
        });
        return { status: 201, body: externalAccountView(account) };
      },
    }),
    defineRoute({
      method: 'get',
      path: base,
      operationId: name('listCustomerExternalAccounts', 'listPlatformExternalAccounts'),
      summary: name('List Customer external accounts', 'List platform external accounts'),
      description: `List ${whose} external accounts, newest first`,
      tags: TAGS,
      query: owner === 'CUSTOMER' ? ExternalAccountListQuerySchema : PlatformExternalAccountListQuerySchema,
      responses: { 200: { description: 'A page of accounts', schema: ExternalAccountListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
      handler: async ({ em, caller, query }) => ({ status: 200, body: await listExternalAccounts(em, caller.platformId, owner, query) }),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:externalAccountId`,
      operationId: name('getCustomerExternalAccountById', 'getPlatformExternalAccountById'),
      summary: name('Get customer external account by ID', 'Get platform external account by ID'),
      description: `Fetch one of ${whose} external accounts`,
      tags: TAGS,
      params: AccountIdParams,
      responses: { 200: { description: 'The account', schema: ExternalAccountSchema }, 401: errorResponses[401], 404: errorResponses[404] },
      handler: async ({ em, caller, params }) => ({
        status: 200,
        body: externalAccountView(await findExternalAccount(em, caller.platformId, params.externalAccountId, owner)),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:externalAccountId`,
      operationId: name('deleteCustomerExternalAccountById', 'deletePlatformExternalAccountById'),
      summary: name('Delete customer external account by ID', 'Delete platform external account by ID'),
      description: `Delete one of ${whose} external accounts (payments that use it keep their record of it)`,
      tags: TAGS,
      params: AccountIdParams,
      responses: {
        204: { description: 'Deleted' },
        401: errorResponses[401],
        404: errorResponses[404],
        409: conflict('BENEFICIARY_TRUSTED: a trusted beneficiary is untrusted (…/untrust and …/untrust/confirm) before it is deleted'),
      },
      handler: async ({ em, caller, params }) => {
        await deleteExternalAccount(em, caller.platformId, params.externalAccountId, owner);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: `${base}/:externalAccountId/challenge`,
      operationId: name('createExternalAccountOwnershipChallenge', 'createPlatformExternalAccountOwnershipChallenge'),
      summary: 'Start an ownership verification challenge',
      description: 'Start (or restart) the ownership verification of a FIRST_PARTY self-custody wallet',
      tags: TAGS,
      params: AccountIdParams,
      body: OwnershipChallengeRequestSchema,
      responses: {
        201: { description: 'The challenge to answer', schema: OwnershipChallengeSchema },
        401: errorResponses[401],
        404: errorResponses[404],
        409: conflict('CONFLICT: ownership verification does not apply (not a FIRST_PARTY self-custody wallet, or already verified)'),
        501: { description: 'NOT_IMPLEMENTED: LIVENESS outside the sandbox (no hosted liveness provider is connected)', schema: errorResponses[400].schema },
      },
      handler: async ({ em, caller, params, body, deps }) => {
        const challenge = await openAccountOwnershipChallenge(
          em,
          deps,
          { platformId: caller.platformId, externalAccountId: params.externalAccountId, owner },
          { method: body.method, livenessLink: (accountId) => livenessLink(deps, accountId) },
        );
        return { status: 201, body: challenge };
      },
    }),
    defineRoute({
      method: 'post',
      path: `${base}/:externalAccountId/verify`,
      operationId: name('verifyExternalAccountOwnership', 'verifyPlatformExternalAccountOwnership'),
      summary: 'Verify ownership with a wallet signature',
      description: "Answer a WALLET_SIGNATURE challenge with the wallet's signature",
      tags: TAGS,
      params: AccountIdParams,
      body: OwnershipVerifyRequestSchema,
      responses: {
        200: { description: 'Verified: the account is ACTIVE', schema: ExternalAccountSchema },
        400: {
          description: 'INVALID_INPUT: the signature does not verify or the challenge expired; the account is UNVERIFIED',
          schema: errorResponses[400].schema,
        },
        401: errorResponses[401],
        404: errorResponses[404],
        409: conflict('CONFLICT: no WALLET_SIGNATURE challenge is outstanding'),
      },
      handler: async ({ em, caller, params, body, deps }) => {
        return {
          status: 200,
          body: await submitAccountOwnershipSignature(em, deps, { platformId: caller.platformId, externalAccountId: params.externalAccountId, owner }, body),
        };
      },
    }),
  ];
}

export const externalAccountRoutes = [...accountRoutes('CUSTOMER'), ...accountRoutes('PLATFORM')];

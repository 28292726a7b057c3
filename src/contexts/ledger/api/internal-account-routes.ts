import { listCustomerInternalAccounts, listPlatformInternalAccounts } from '../services/internal-account-views';
import { defineRoute } from '../../../api/route';
import {
  InternalAccountListQuerySchema,
  InternalAccountListSchema,
  PlatformInternalAccountListSchema,
  PlatformInternalAccountQuerySchema,
} from '../schemas/internal-account-schemas';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { InternalAccountSchema } from '../schemas/internal-account-schemas';
import { reissueFundingInstructions } from '../services/funding-instructions';
import { startWebhookDelivery } from '../../webhooks';
import { logger } from '../../../logger';

export const internalAccountRoutes = [
  defineRoute({
    method: 'get',
    path: '/customers/internal-accounts',
    operationId: 'listCustomerInternalAccounts',
    summary: 'List Customer internal accounts',
    description: "List customers' internal accounts with balances and funding instructions",
    tags: ['Internal Accounts'],
    query: InternalAccountListQuerySchema,
    responses: {
      200: { description: 'A page of accounts, newest first', schema: InternalAccountListSchema },
      400: errorResponses[400],
      401: errorResponses[401],
    },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listCustomerInternalAccounts(em, caller.platformId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/platform/internal-accounts',
    operationId: 'listPlatformInternalAccounts',
    summary: 'List platform internal accounts',
    description: "List the platform's own internal accounts (not paginated)",
    tags: ['Internal Accounts'],
    query: PlatformInternalAccountQuerySchema,
    responses: {
      200: { description: 'The accounts, oldest first', schema: PlatformInternalAccountListSchema },
      400: errorResponses[400],
      401: errorResponses[401],
    },
    handler: async ({ em, caller, query }) => ({ status: 200, body: { data: await listPlatformInternalAccounts(em, caller.platformId, query) } }),
  }),
  defineRoute({
    method: 'post',
    path: '/sandbox/internal-accounts/:accountId/funding-instructions/reissue',
    permission: 'MANAGE',
    operationId: 'sandboxReissueFundingInstructions',
    summary: 'Simulate new funding coordinates for an internal account',
    description:
      "Sandbox: the account's funding coordinates are withdrawn and new ones served (a new reference, account number, IBAN or CLABE), as a provider reissuing them would; INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED announces the account with its new fundingPaymentInstructions",
    tags: ['Sandbox'],
    params: IdParam('accountId'),
    idempotent: true,
    sandboxOnly: true,
    responses: {
      200: { description: 'The account with its new fundingPaymentInstructions', schema: InternalAccountSchema },
      401: errorResponses[401],
      404: errorResponses[404],
      409: {
        description: 'CONFLICT: an embedded wallet (its address is its own); INVALID_STATE_TRANSITION: the account is not ACTIVE',
        schema: errorResponses[400].schema,
      },
    },
    handler: async ({ em, caller, params, deps }) => {
      const { view, event } = await reissueFundingInstructions(em, {
        platformId: caller.platformId,
        accountId: params.accountId,
        environment: caller.environment,
      });
      try {
        await startWebhookDelivery(deps.temporal, event, { taskQueue: deps.taskQueue });
      } catch (err) {
        // Recorded with the change: the sweep for stranded deliveries starts it.
        logger.error({ err, eventId: event.id }, 'could not start webhook delivery');
      }
      return { status: 200, body: view };
    },
  }),
];

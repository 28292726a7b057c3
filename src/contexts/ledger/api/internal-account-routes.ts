import { InternalAccount } from '../entities';
import { internalAccountViews } from '../services/internal-account-views';
import { listPage } from '../../../services/listing';
import { defineRoute } from '../../../api/route';
import {
  InternalAccountListQuerySchema,
  InternalAccountListSchema,
  PlatformInternalAccountListSchema,
  PlatformInternalAccountQuerySchema,
} from '../schemas/internal-account-schemas';
import { errorResponses } from '../../../api/schemas/common';

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
    handler: async ({ em, caller, query }) => {
      const where = {
        platformId: caller.platformId,
        customerId: query.customerId ?? { $ne: null },
        ...(query.currency ? { currency: query.currency } : {}),
        ...(query.type ? { type: query.type } : {}),
      };
      return { status: 200, body: await listPage(em, InternalAccount, where, query, (rows) => internalAccountViews(em, rows)) };
    },
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
    handler: async ({ em, caller, query }) => {
      const accounts = await em.find(
        InternalAccount,
        {
          platformId: caller.platformId,
          customerId: null,
          ...(query.currency ? { currency: query.currency } : {}),
          ...(query.type ? { type: query.type } : {}),
        },
        { orderBy: { createdAt: 'asc', id: 'asc' } },
      );
      return { status: 200, body: { data: await internalAccountViews(em, accounts) } };
    },
  }),
];

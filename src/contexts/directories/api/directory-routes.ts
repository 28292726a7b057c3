import { defineRoute } from '../../../api/route';
import { errorResponses } from '../../../api/schemas/common';
import { discoveries, discoveryKey, pageOfDirectory, umaProviderKey, umaProviders, vaspKey, vasps, wholeOrPageOfDirectory } from '../domain';
import { DiscoveryListSchema, DiscoveryQuerySchema, UmaProviderListSchema, UmaProviderQuerySchema, VaspListSchema, VaspQuerySchema } from './schemas';

// Read-only directories of data the service owns (src/contexts/directories/domain/data): the same
// for every platform, paged in memory.
export const directoryRoutes = [
  defineRoute({
    method: 'get',
    path: '/discoveries',
    operationId: 'getDiscoveries',
    summary: 'List available receiving institution names',
    description: 'List receiving institutions (banks, wallets, mobile-money providers) by country and currency',
    tags: ['Discoveries'],
    query: DiscoveryQuerySchema,
    responses: {
      200: {
        description: 'Every matching institution, by country, currency and name; a page of them when limit or cursor is sent',
        schema: DiscoveryListSchema,
      },
      400: errorResponses[400],
      401: errorResponses[401],
    },
    handler: async ({ query }) => ({
      status: 200,
      body: wholeOrPageOfDirectory('discoveries', discoveries({ country: query.country, currency: query.currency }), discoveryKey, query),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/vasps',
    operationId: 'listVasps',
    summary: 'List VASPs',
    description: 'List VASPs (exchanges and custodians) a counterparty may be declared at',
    tags: ['VASPs'],
    query: VaspQuerySchema,
    responses: { 200: { description: 'A page of VASPs, by name', schema: VaspListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ query }) => {
      // The reference's VaspListResponse has no totalCount.
      const { totalCount: _totalCount, ...page } = pageOfDirectory('vasps', vasps(), vaspKey, query);
      return { status: 200, body: page };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/uma-providers',
    operationId: 'getAvailableUmaProviders',
    summary: 'List available Counterparty Providers',
    description: 'List UMA providers, with the currencies each supports',
    tags: ['Available UMA Providers'],
    query: UmaProviderQuerySchema,
    responses: {
      200: { description: 'A page of providers, by name (desc unless sortOrder=asc)', schema: UmaProviderListSchema },
      400: errorResponses[400],
      401: errorResponses[401],
    },
    handler: async ({ query }) => {
      const providers = umaProviders({ countryCode: query.countryCode, currencyCode: query.currencyCode, hasBlockedProviders: query.hasBlockedProviders });
      return { status: 200, body: pageOfDirectory('uma-providers', providers, umaProviderKey, query, 'desc') };
    },
  }),
];

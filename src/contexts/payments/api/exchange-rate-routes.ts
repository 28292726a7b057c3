import { defineRoute } from '../../../api/route';
import { errorResponses } from '../../../api/schemas/common';
import { platformExchangeRates } from '../services/exchange-rates';
import { ExchangeRateListSchema, ExchangeRateQuerySchema } from './exchange-rate-schemas';

export const exchangeRateRoutes = [
  defineRoute({
    method: 'get',
    path: '/exchange-rates',
    operationId: 'getExchangeRates',
    summary: 'Get exchange rates',
    description: "Cached (about 5 minutes) indicative rates per corridor, with the service's and the platform's fees",
    tags: ['Exchange Rates'],
    query: ExchangeRateQuerySchema,
    responses: {
      200: { description: 'Every corridor the filters select (not paginated)', schema: ExchangeRateListSchema },
      400: errorResponses[400],
      401: errorResponses[401],
    },
    handler: async ({ em, caller, query }) => ({ status: 200, body: { data: await platformExchangeRates(em, caller.platformId, query) } }),
  }),
];

import { exchangeRateRoutes } from './exchange-rate-routes';
import { lookupRoutes } from './lookup-routes';
import { quoteAuthorizationRoutes } from './quote-authorization-routes';
import { quoteRoutes } from './quote-routes';
import { sandboxRoutes } from './sandbox-routes';
import { transactionRoutes } from './transaction-routes';
import { transactionDecisionRoutes } from './transaction-decision-routes';
import { transferRoutes } from './transfer-routes';

/** Quotes, exchange rates, transactions and sandbox funding. */
export const routes = [
  ...transactionRoutes,
  ...transactionDecisionRoutes,
  ...sandboxRoutes,
  ...quoteRoutes,
  ...quoteAuthorizationRoutes,
  ...exchangeRateRoutes,
  ...transferRoutes,
  ...lookupRoutes,
];

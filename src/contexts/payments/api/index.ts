import { sandboxRoutes } from './sandbox-routes';
import { transactionRoutes } from './transaction-routes';
import { quoteRoutes } from './quote-routes';

/** Quotes, transactions and sandbox funding. */
export const routes = [...transactionRoutes, ...sandboxRoutes, ...quoteRoutes];

import { exchangeRateRoutes } from './exchange-rate-routes';
import { sandboxRoutes } from './sandbox-routes';
import { transactionRoutes } from './transaction-routes';

/** Transactions and sandbox funding. */
export const routes = [...transactionRoutes, ...sandboxRoutes, ...exchangeRateRoutes];

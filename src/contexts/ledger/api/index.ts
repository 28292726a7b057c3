import { internalAccountRoutes } from './internal-account-routes';

/** Internal accounts and their balances. */
export const routes = [...internalAccountRoutes];

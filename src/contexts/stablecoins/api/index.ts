import { operationRoutes } from './operation-routes';
import { providerAccountRoutes } from './provider-account-routes';
import { stablecoinRoutes } from './stablecoin-routes';

/** Stablecoin issuance: provider account links, registered tokens, mints and burns. */
export const routes = [...providerAccountRoutes, ...stablecoinRoutes, ...operationRoutes];

import { configRoutes } from './config-routes';
import { tokenRoutes } from './token-routes';

/** The calling platform's own configuration and API tokens. */
export const routes = [...configRoutes, ...tokenRoutes];

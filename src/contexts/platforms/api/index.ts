import { configRoutes } from './config-routes';

/** The calling platform's own configuration. */
export const routes = [...configRoutes];

import { configRoutes } from './config-routes';

/** The calling platform's own configuration: it also opens ledger accounts and announces the webhook endpoint, so it sits above platforms, webhooks and ledger. */
export const routes = [...configRoutes];

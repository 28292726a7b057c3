import { webhookRoutes } from './webhook-routes';

/** The webhook public key and the test event. */
export const routes = [...webhookRoutes];

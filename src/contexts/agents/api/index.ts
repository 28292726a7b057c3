import { agentMeRoutes } from './agent-me-routes';
import { agentPaymentRoutes } from './agent-payment-routes';
import { deviceCodeRoutes } from './device-code-routes';
import { managementRoutes } from './management-routes';

/** Agents: managed by the platform (Basic), installed with a device code, acting with their own bearer token under /agents/me. */
export const routes = [...managementRoutes, ...deviceCodeRoutes, ...agentMeRoutes, ...agentPaymentRoutes];

import { cardRoutes } from './card-routes';
import { sandboxRoutes } from './sandbox-routes';

/** Cards issued to customers, and the sandbox's card network. */
export const routes = [...cardRoutes, ...sandboxRoutes];

import { cardRoutes } from './card-routes';
import { delegatedKeyRoutes } from './delegated-key-routes';
import { sandboxRoutes } from './sandbox-routes';

/** Cards issued to customers, and the sandbox's card network. */
export const routes = [...cardRoutes, ...delegatedKeyRoutes, ...sandboxRoutes];
/** The cardholder's reveal page: outside partner authentication (its signed link is the credential). */
export { revealPageRouter as publicRouter } from './reveal-page';

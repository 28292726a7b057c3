import { beneficiaryTrustRoutes } from './beneficiary-trust-routes';
import { externalAccountRoutes } from './external-account-routes';
import { sandboxRoutes } from './sandbox-routes';

/** Bank accounts and wallets outside the service, their checks and ownership verification. */
export const routes = [...externalAccountRoutes, ...beneficiaryTrustRoutes, ...sandboxRoutes];

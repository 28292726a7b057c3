import { credentialRoutes } from './credential-routes';
import { sessionRoutes } from './session-routes';

/** Embedded-wallet authentication: credentials, their challenges and verification, sessions. */
export const routes = [...credentialRoutes, ...sessionRoutes];

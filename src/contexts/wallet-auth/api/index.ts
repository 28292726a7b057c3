import { credentialRoutes } from './credential-routes';
import { sessionRoutes } from './session-routes';
import { walletAccountRoutes } from './wallet-account-routes';

/** Embedded-wallet authentication: credentials, their challenges and verification, sessions; the signed operations on a wallet's account. */
export const routes = [...credentialRoutes, ...sessionRoutes, ...walletAccountRoutes];

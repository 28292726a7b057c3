import { walletAccountRoutes } from './wallet-account-routes';

/** Embedded-wallet credentials, sessions and the signed operations on a wallet's account. */
export const routes = [...walletAccountRoutes];

import { directoryRoutes } from './directory-routes';

/** Read-only directories: receiving institutions, VASPs and UMA providers. */
export const routes = [...directoryRoutes];

import { tokenRoutes } from './token-routes';

/** The calling platform's API tokens (its configuration routes are platform-setup's). */
export const routes = [...tokenRoutes];

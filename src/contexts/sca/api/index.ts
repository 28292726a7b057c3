import { factorRoutes } from './factor-routes';
import { loginRoutes } from './login-routes';
import { resetRoutes } from './reset-routes';

/** Strong Customer Authentication: factors, login sessions, security events, factor resets. */
export const routes = [...factorRoutes, ...loginRoutes, ...resetRoutes];

import type { Router } from 'express';
import type { ApiDeps } from '../../../api/context';
import { dashboardRoutes } from './dashboard-routes';
import { dashboardPages } from './pages';
import { sessionRouter, type SessionRouterShared } from './session-routes';

/** The dashboard's own endpoints behind partner authentication (webhook events, metrics). */
export const routes = [...dashboardRoutes];

/** Sign-in, session and sign-out: before partner authentication, sharing its failure count. */
export const publicRouter = (deps: ApiDeps, shared: SessionRouterShared): Router => sessionRouter(deps, shared);

/** The built front end under /dashboard, outside the API base and before any authentication. */
export const rootRouter = (deps: ApiDeps): Router => dashboardPages(deps.dashboard?.distDir);

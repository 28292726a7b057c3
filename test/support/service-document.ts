import express from 'express';
import type { ApiDeps } from '../../src/api/context';
import { openApiDocument } from '../../src/api/openapi-registry';
import { mountRoute, type RouteSpec } from '../../src/api/route';
import { CONTEXTS_DIR, discover } from '../../src/contexts/discover';

export type AnyRoute = RouteSpec<never, never, never>;

/** Every route of every context, as the API mounts them. */
export function serviceRoutes(): AnyRoute[] {
  return discover<{ routes: AnyRoute[] }>(CONTEXTS_DIR, 'api/index').flatMap(({ module }) => module.routes);
}

/**
 * The service's own OpenAPI document (what `GET /openapi.json` serves), built without a database
 * or a server: mounting a route documents it, and nothing of `deps` is touched until a request.
 */
export function serviceDocument(routes = serviceRoutes()) {
  const router = express.Router();
  for (const route of routes) mountRoute(router, {} as ApiDeps, route);
  return openApiDocument('http://127.0.0.1/2025-10-13');
}

/** A route's place in the document: `POST /customers/{customerId}`. */
export const operationKey = (route: Pick<AnyRoute, 'method' | 'path'>) => `${route.method.toUpperCase()} ${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;

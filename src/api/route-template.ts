import type { Request, Response } from 'express';

/** The label of requests no route answered (unknown paths, refused credentials before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The path template of the route that answered (`/customers/:customerId`), never the raw URL, so
 * that metric labels stay few. Express leaves `req.route` set when a route passes a request on
 * (`next('route')`), so the 404/405 handler marks its answers as unmatched explicitly.
 */
export function routeTemplateOf(req: Request, res: Response): string {
  if (res.locals.unmatchedRoute) return UNMATCHED_ROUTE;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? path : UNMATCHED_ROUTE;
}

export function markUnmatched(res: Response): void {
  res.locals.unmatchedRoute = true;
}

import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../domain/errors';
import { sendError } from '../http';
import { decodeSegment, routePattern } from '../route-match';
import { UNBUILT_OPERATIONS } from '../unbuilt-operations';

/** The reference's operations not built yet, as routes (Express paths) for matching and the 405 table. */
export const unbuiltRoutes = UNBUILT_OPERATIONS.map((operation) => {
  const [method, path] = operation.split(' ') as [string, string];
  return { operation, method: method.toLowerCase(), path: path.replace(/\{(\w+)\}/g, ':$1') };
});

/**
 * 501 NOT_IMPLEMENTED for an operation of the reference not built yet, naming it. Mounted after
 * the service's routes in the authenticated router, so credentials are checked first and a
 * built operation always wins.
 */
export function notImplementedHandler() {
  const routes = unbuiltRoutes.map((route) => ({ ...route, pattern: routePattern(route) }));
  return (req: Request, res: Response, next: NextFunction): void => {
    const method = req.method.toLowerCase();
    const path = req.path.split('/').map(decodeSegment).join('/');
    const route = routes.find((r) => r.method === method && r.pattern.test(path));
    if (!route) return next();
    sendError(res, new DomainError('NOT_IMPLEMENTED', `${route.operation} is an operation of the public reference that this service does not offer yet`));
  };
}

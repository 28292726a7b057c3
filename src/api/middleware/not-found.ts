import type { Request, Response } from 'express';
import { DomainError } from '../../domain/errors';
import { sendError } from '../http';
import { decodeSegment, routePattern } from '../route-match';
import { markUnmatched } from '../route-template';

export interface KnownRoute {
  method: string;
  path: string;
  /** Its parameters are resource ids (`<Type>:<uuid>`), as mountRoute requires. */
  idParams?: boolean;
}

/**
 * JSON 405 (with Allow) for a known path and the wrong method, JSON 404 for everything else.
 * A path is known by its literal segments first (`/customers/external-accounts`), else with any
 * value for its id parameters, so another method on `/transactions/not-an-id` is 405 as on a
 * well-formed id.
 */
export function notFoundHandler(routes: () => KnownRoute[], basePath: string) {
  return (req: Request, res: Response): void => {
    markUnmatched(res);
    const raw = req.path.startsWith(basePath) ? req.path.slice(basePath.length) || '/' : null;
    // Match on decoded segments, as Express does for parameters (`Customer%3A…` is an id too).
    const path = raw === null ? null : raw.split('/').map(decodeSegment).join('/');
    if (path !== null) {
      const known = routes();
      const strict = known.filter((r) => routePattern(r).test(path));
      const matching = strict.length > 0 ? strict : known.filter((r) => routePattern(r, 'any').test(path));
      const allowed = [...new Set(matching.map((r) => r.method.toUpperCase()))];
      if (allowed.length > 0) {
        res.setHeader('Allow', allowed.join(', '));
        sendError(res, new DomainError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on this path; allowed: ${allowed.join(', ')}`));
        return;
      }
    }
    sendError(res, new DomainError('NOT_FOUND', `No route for ${req.method} ${req.path}`));
  };
}

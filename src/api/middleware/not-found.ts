import type { Request, Response } from 'express';
import { DomainError } from '../../domain/errors';
import { sendError } from '../http';
import { markUnmatched } from '../route-template';

export interface KnownRoute {
  method: string;
  path: string;
  /** Its parameters are resource ids (`<Type>:<uuid>`), as mountRoute requires. */
  idParams?: boolean;
}

function matcher({ path, idParams }: KnownRoute): RegExp {
  const pattern = path
    .split('/')
    // Id parameters (`<Type>:<uuid>`), as in mountRoute: a segment without a colon is literal.
    .map((segment) => (segment.startsWith(':') ? (idParams ? '[^/:]+:[^/]*' : '[^/]+') : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}/?$`);
}

/** JSON 405 (with Allow) for a known path and the wrong method, JSON 404 for everything else. */
export function notFoundHandler(routes: () => KnownRoute[], basePath: string) {
  return (req: Request, res: Response): void => {
    markUnmatched(res);
    const raw = req.path.startsWith(basePath) ? req.path.slice(basePath.length) || '/' : null;
    // Match on decoded segments, as Express does for parameters (`Customer%3A…` is an id too).
    const path = raw === null ? null : raw.split('/').map(decodeSegment).join('/');
    if (path !== null) {
      const allowed = [...new Set(routes().filter((r) => matcher(r).test(path)).map((r) => r.method.toUpperCase()))];
      if (allowed.length > 0) {
        res.setHeader('Allow', allowed.join(', '));
        sendError(res, new DomainError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on this path; allowed: ${allowed.join(', ')}`));
        return;
      }
    }
    sendError(res, new DomainError('NOT_FOUND', `No route for ${req.method} ${req.path}`));
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment).replace(/\//g, '%2F');
  } catch {
    return segment;
  }
}

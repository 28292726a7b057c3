import type { Request, Response } from 'express';
import { DomainError } from '../../domain/errors';
import { sendError } from '../http';

export interface KnownRoute {
  method: string;
  path: string;
}

function matcher(path: string): RegExp {
  const pattern = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}/?$`);
}

/** JSON 405 (with Allow) for a known path and the wrong method, JSON 404 for everything else. */
export function notFoundHandler(routes: () => KnownRoute[], basePath: string) {
  return (req: Request, res: Response): void => {
    const path = req.path.startsWith(basePath) ? req.path.slice(basePath.length) || '/' : null;
    if (path !== null) {
      const allowed = [...new Set(routes().filter((r) => matcher(r.path).test(path)).map((r) => r.method.toUpperCase()))];
      if (allowed.length > 0) {
        res.setHeader('Allow', allowed.join(', '));
        sendError(res, new DomainError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on this path; allowed: ${allowed.join(', ')}`));
        return;
      }
    }
    sendError(res, new DomainError('NOT_FOUND', `No route for ${req.method} ${req.path}`));
  };
}

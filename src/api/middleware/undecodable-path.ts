import type { NextFunction, Request, Response } from 'express';
import { DomainError, type FieldError } from '../../domain/errors';
import { sendError } from '../http';
import { decodeSegment } from '../route-match';
import type { KnownRoute } from './not-found';

/**
 * The router's refusal of a path parameter that is not percent-encoded UTF-8 (`%FF`, `%ZZ`,
 * `%C0%AF`): Express throws it while matching the route, before any of the route's code runs.
 */
function isUndecodableParam(err: unknown): boolean {
  return err instanceof URIError && err.message.startsWith('Failed to decode param');
}

const undecodable = (segment: string): boolean => {
  try {
    decodeURIComponent(segment);
    return false;
  } catch {
    return true;
  }
};

/**
 * The parameters of the route this raw path is for whose segment cannot be decoded. A route of
 * the request's method is preferred; any other method's route still names the parameter.
 */
function undecodableParams(rawPath: string, method: string, routes: KnownRoute[]): string[] {
  const segments = rawPath.replace(/\/$/, '').split('/');
  const matching = routes.filter((route) => {
    const pattern = route.path.split('/');
    return pattern.length === segments.length && pattern.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === decodeSegment(segments[i]!)));
  });
  const route = matching.find((r) => r.method.toLowerCase() === method.toLowerCase()) ?? matching[0];
  if (!route) return [];
  return route.path.split('/').flatMap((part, i) => (part.startsWith(':') && undecodable(segments[i]!) ? [part.slice(1)] : []));
}

/**
 * A path parameter that is not valid percent-encoded UTF-8 is the client's malformed input, on
 * every route alike: `400 INVALID_INPUT` naming each such parameter, never the 500 of an
 * unmapped router error. No id can contain it, so no route needs to look anything up to refuse it.
 */
export function undecodablePathHandler(routes: () => KnownRoute[], basePath: string) {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (!isUndecodableParam(err)) return next(err);
    const raw = req.path.startsWith(basePath) ? req.path.slice(basePath.length) || '/' : req.path;
    const names = undecodableParams(raw, req.method, routes());
    const errors: FieldError[] = (names.length > 0 ? names : ['path']).map((field) => ({
      field,
      constraint: 'encoding',
      message: 'Not valid percent-encoded UTF-8: each %XX escape must be two hex digits, and together they must spell UTF-8 characters',
    }));
    sendError(res, DomainError.invalidInput(errors, 'A path parameter is not valid percent-encoded UTF-8'));
  };
}

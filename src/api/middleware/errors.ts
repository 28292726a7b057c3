import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../domain/errors';
import { errorSummary, logger } from '../../logger';
import { payloadTooLarge } from '../body-limits';
import { sendError } from '../http';
import { temporalOutOfReach } from '../../temporal/failures';
import { databaseOutOfReach } from '../../db/out-of-reach';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
  expose?: boolean;
}

/** Turns anything thrown into the §7 error body; unknown failures are logged and become 500. */
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) return;
  if (err instanceof DomainError) {
    // A service's 429 says its wait in details (services know nothing of HTTP): the reference's Retry-After.
    const wait = err.code === 'RATE_LIMITED' ? err.details?.retryAfterSeconds : undefined;
    if (typeof wait === 'number' && !res.getHeader('Retry-After')) res.setHeader('Retry-After', String(wait));
    sendError(res, err);
    return;
  }
  const parserError = err as BodyParserError;
  if (parserError?.type === 'entity.parse.failed') {
    sendError(res, DomainError.invalidInput([{ field: 'body', constraint: 'json', message: 'The request body is not valid JSON' }], 'Malformed JSON body'));
    return;
  }
  if (parserError?.type === 'entity.too.large' && typeof parserError.limit === 'number') {
    sendError(res, payloadTooLarge(parserError.limit));
    return;
  }
  if (parserError?.type === 'charset.unsupported' || parserError?.type === 'encoding.unsupported') {
    sendError(res, DomainError.invalidInput([{ field: 'body', constraint: 'encoding', message: parserError.message }]));
    return;
  }
  // Any other fault of the body reader is the client's (a corrupt gzip stream, a body shorter
  // than its Content-Length): http-errors marks those 4xx and safe to expose.
  if (parserError?.expose && parserError.status === 400) {
    sendError(
      res,
      DomainError.invalidInput(
        [{ field: 'body', constraint: 'encoding', message: 'The request body could not be read: it is truncated, or not in its declared Content-Encoding' }],
        'Unreadable request body',
      ),
    );
    return;
  }
  const log = (req as Request & { log?: typeof logger }).log ?? logger;
  if (temporalOutOfReach(err)) {
    // Not the request's fault and not a refusal: the same request again (same Idempotency-Key) is safe.
    log.warn({ failure: errorSummary(err) }, 'Temporal out of reach');
    res.setHeader('Retry-After', '1');
    sendError(
      res,
      new DomainError('SERVICE_UNAVAILABLE', 'The service could not reach its workflow engine in time; retry the request (with the same Idempotency-Key)'),
    );
    return;
  }
  if (databaseOutOfReach(err)) {
    // The same answer as Temporal's: nothing was done or refused for sure, and a retry (same key) is safe.
    log.warn({ failure: errorSummary(err) }, 'PostgreSQL out of reach');
    res.setHeader('Retry-After', '1');
    sendError(res, new DomainError('SERVICE_UNAVAILABLE', 'The service could not reach its database; retry the request (with the same Idempotency-Key)'));
    return;
  }
  // Not under `err`: pino-http runs its own serializer there first, which follows the client
  // errors' circular references and gives up.
  log.error({ failure: errorSummary(err) }, 'unhandled error');
  sendError(res, DomainError.internal());
}

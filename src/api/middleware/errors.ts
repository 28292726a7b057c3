import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../domain/errors';
import { logger } from '../../logger';
import { sendError } from '../http';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** Turns anything thrown into the §7 error body; unknown failures are logged and become 500. */
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) return;
  if (err instanceof DomainError) {
    sendError(res, err);
    return;
  }
  const parserError = err as BodyParserError;
  if (parserError?.type === 'entity.parse.failed') {
    sendError(res, DomainError.invalidInput([{ field: 'body', constraint: 'json', message: 'The request body is not valid JSON' }], 'Malformed JSON body'));
    return;
  }
  if (parserError?.type === 'entity.too.large') {
    sendError(res, DomainError.invalidInput([{ field: 'body', constraint: 'maxSize', message: 'The request body is too large' }]));
    return;
  }
  if (parserError?.type === 'charset.unsupported' || parserError?.type === 'encoding.unsupported') {
    sendError(res, DomainError.invalidInput([{ field: 'body', constraint: 'encoding', message: parserError.message }]));
    return;
  }
  const log = (req as Request & { log?: typeof logger }).log ?? logger;
  log.error({ err }, 'unhandled error');
  sendError(res, DomainError.internal());
}

import type { Response } from 'express';
import type { DomainError } from '../domain/errors';
import { errorBody, httpStatusOf } from './error-status';
import { stringifyWithBigInt } from '../domain/json';

/** Writes a JSON body whose bigint amounts are emitted as exact integers. */
export function sendJson(res: Response, status: number, body: unknown): string | undefined {
  if (status === 204 || body === undefined) {
    res.status(status).end();
    return undefined;
  }
  const text = stringifyWithBigInt(body);
  res.status(status).type('application/json').send(text);
  return text;
}

export function sendError(res: Response, err: DomainError): string | undefined {
  return sendJson(res, httpStatusOf(err), errorBody(err));
}

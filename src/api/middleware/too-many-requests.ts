import type { Response } from 'express';
import { DomainError } from '../../domain/errors';

/** The 429 RATE_LIMITED refusal (the reference's Error429), its wait in Retry-After and in details. */
export function tooManyRequests(res: Response, retryAfterSeconds: number, reason: string): DomainError {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  return new DomainError('RATE_LIMITED', `${reason}; retry after ${retryAfterSeconds} s`, { retryAfterSeconds });
}

import type { NextFunction, Request, Response } from 'express';
import type { AbuseLimits } from '../../config';
import { TokenBuckets } from '../../security/token-bucket';
import type { Caller } from '../context';
import { tooManyRequests } from './too-many-requests';

/**
 * A token bucket per API token, after authentication: `requestBurst` requests at once, then
 * `requestsPerSecond`. In this process's memory, so each API process allows that much.
 */
export function rateLimitPerToken(limits: AbuseLimits, now: () => number) {
  const buckets = new TokenBuckets(limits.requestsPerSecond, limits.requestBurst, now);
  return (_req: Request, res: Response, next: NextFunction): void => {
    const caller = res.locals.caller as Caller;
    const admission = buckets.take(caller.tokenId);
    if (!admission.allowed) throw tooManyRequests(res, admission.retryAfterSeconds, 'Too many requests for this API token');
    next();
  };
}

import type { Client } from '@temporalio/client';
import type { RequestHandler } from 'express';
import { DEFAULT_TEMPORAL_CALL_TIMEOUT_MS } from '../../config';

/**
 * Gives every Temporal call a request makes one shared deadline. Without it a call to a Temporal
 * that does not answer (a partition: the connection is open, nothing comes back) waits as long as
 * the link stays silent, and holds the request's Idempotency-Key claim the while: the partner's
 * retries, on any replica, hear "operation in progress" until it ends.
 */
export function temporalDeadline(temporal: Client, timeoutMs = DEFAULT_TEMPORAL_CALL_TIMEOUT_MS): RequestHandler {
  return (_req, _res, next) => {
    void temporal.connection.withDeadline(Date.now() + timeoutMs, async () => next());
  };
}

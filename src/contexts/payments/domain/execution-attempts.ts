import { randomUUID } from 'node:crypto';

/**
 * The key an execute attempt records on its quote before the quote's workflow executes it: the
 * request's Idempotency-Key (a retry of the request is the same request), or one made for this
 * attempt alone.
 */
export function executionAttemptKey(idempotencyKey: string | undefined): string {
  return idempotencyKey ?? `attempt:${randomUUID()}`;
}

export type ExecuteAnswer = 'EXECUTED' | 'ALREADY_EXECUTED';

/**
 * How an execute attempt is answered. A quote found executed, or reported a repeat by its
 * workflow, was executed by the request whose key it records: that request is answered as
 * executed (a retry whose first answer was lost, or this very attempt when its execution step ran
 * twice inside Temporal and the second run found the first one's work), any other is a repeat.
 */
export function executeAnswer(attempt: { key: string; repeat: boolean }, recordedKey: string | null | undefined): ExecuteAnswer {
  if (!attempt.repeat) return 'EXECUTED';
  return recordedKey === attempt.key ? 'EXECUTED' : 'ALREADY_EXECUTED';
}

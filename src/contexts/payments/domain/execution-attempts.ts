import { randomUUID } from 'node:crypto';

/**
 * The key of one execute request: its Idempotency-Key (a retry of the request is the same
 * request), or one made for this request alone. It becomes the execution's update id and is
 * recorded with the execution, so a retry is answered as executed and any other request is a repeat.
 */
export function executionRequestKey(idempotencyKey: string | undefined): string {
  return idempotencyKey ?? `request:${randomUUID()}`;
}

import { ApplicationFailure } from '@temporalio/common';

const ATTEMPTS = 5;

/**
 * Calls an update again when the server rejected it without the workflow having seen it. Under
 * many concurrent updates to one workflow, a worker can complete a workflow task without
 * processing an update delivered with it; the server then rejects that update with the
 * non-retryable `UnprocessedUpdate` failure. Nothing ran, so sending it again is safe, and it is
 * what the caller meant: joining the workflow (or finding the outcome it reached meanwhile).
 */
export async function retryingUnprocessedUpdate<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (attempt >= ATTEMPTS || !neverProcessed(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt * (0.5 + Math.random())));
    }
  }
}

/** The server's rejection of an update no worker processed. */
export function neverProcessed(err: unknown): boolean {
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof ApplicationFailure && cause.type === 'UnprocessedUpdate') return true;
  }
  return false;
}

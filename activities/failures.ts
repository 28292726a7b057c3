import { ApplicationFailure } from '@temporalio/activity';
import { DomainError } from '../src/domain/errors';

/**
 * The one conversion from the service's errors to Temporal failures: a DomainError is a
 * decision (not found, insufficient funds, not allowed), so retrying cannot change it. It
 * becomes a non-retryable ApplicationFailure whose type is the error code and whose details
 * carry the error's details; the API maps it back with the same code (src/temporal/failures.ts).
 * Anything else (database down, time-out) stays retryable.
 */
export function toActivityFailure(err: unknown): unknown {
  if (err instanceof DomainError) return ApplicationFailure.nonRetryable(err.reason, err.code, ...(err.details ? [err.details] : []));
  return err;
}

type ActivityFunction = (...args: never[]) => Promise<unknown>;

/** Wraps every activity of a set so that what it throws goes through toActivityFailure. */
export function withFailureConversion<T extends Record<string, ActivityFunction>>(activities: T): T {
  return Object.fromEntries(
    Object.entries(activities).map(([name, fn]) => [
      name,
      async (...args: never[]) => {
        try {
          return await fn(...args);
        } catch (err) {
          throw toActivityFailure(err);
        }
      },
    ]),
  ) as T;
}

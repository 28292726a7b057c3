import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/**
 * An update can only be failed with an ApplicationFailure: a refusal raised by an activity
 * arrives wrapped in an ActivityFailure, so its ApplicationFailure (typed with the error code) is
 * unwrapped; anything else becomes a non-retryable failure with its message.
 */
export function asApplicationFailure(err: unknown): ApplicationFailure {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) return err.cause;
  if (err instanceof ApplicationFailure) return err;
  return ApplicationFailure.create({ message: err instanceof Error ? err.message : String(err), nonRetryable: true });
}

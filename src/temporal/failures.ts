import { isGrpcServiceError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { ApplicationFailure, NamespaceNotFoundError, WorkflowNotFoundError } from '@temporalio/common';
import { DomainError, isErrorCode } from '../domain/errors';

/**
 * The one place where a Temporal failure becomes an API error. A refusal raised by an activity
 * arrives wrapped (WorkflowFailedError → ActivityFailure → ApplicationFailure, or
 * WorkflowUpdateFailedError → ApplicationFailure), so the cause chain is searched for an
 * ApplicationFailure typed with one of the service's error codes. Anything else is not a
 * refusal and is left to become a 500.
 */
export function domainErrorFrom(err: unknown): DomainError | undefined {
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof DomainError) return cause;
    if (cause instanceof ApplicationFailure && isErrorCode(cause.type)) {
      const details = cause.details?.[0];
      return new DomainError(cause.type, cause.message, details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined);
    }
  }
  return undefined;
}

/** Rethrows a Temporal failure as the API error it stands for (or as it is). */
export function rethrowAsDomainError(err: unknown): never {
  throw domainErrorFrom(err) ?? err;
}

/** gRPC's DEADLINE_EXCEEDED (4) and UNAVAILABLE (14). */
const OUT_OF_REACH_CODES = new Set([4, 14]);

/** gRPC's FAILED_PRECONDITION, as the server answers an update while the workflow's task is failing. */
const FAILED_PRECONDITION = 9;

/**
 * Temporal did not answer in time or could not be reached (the request's deadline passed, the
 * channel has no connection), or it took no update for now because the workflow's task is failing
 * (the worker that had it died: the server takes updates again once another worker completes the
 * task, after its timeout): nothing is known to have been refused, and the same request sent
 * again (the starts and updates are keyed by business ids) does the work at most once. The API
 * answers it 503, so a partner's retry can reach a replica that can reach Temporal.
 */
export function temporalOutOfReach(err: unknown): boolean {
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
    if (isGrpcServiceError(cause) && OUT_OF_REACH_CODES.has(cause.code)) return true;
    if (workflowTaskFailing(cause)) return true;
    if (namespaceNotLoaded(cause)) return true;
  }
  return false;
}

/** gRPC's NOT_FOUND. */
const NOT_FOUND = 5;

/**
 * The service's namespace is registered once and never deleted, yet the Temporal server answers it NOT_FOUND for a
 * moment after its persistence failed over to a promoted standby (its namespace cache is refreshed from a database
 * that was just unreachable; `npm run drill -- failover` saw it): a retry later, not a refusal, and no sign that a run is over.
 */
function namespaceNotLoaded(err: Error): boolean {
  if (err instanceof NamespaceNotFoundError) return true;
  return (err as { code?: unknown }).code === NOT_FOUND && /namespace\b.*\bnot found/i.test(err.message);
}

function workflowTaskFailing(err: Error): boolean {
  return (err as { code?: unknown }).code === FAILED_PRECONDITION && /workflow task in failed state/i.test(err.message);
}

/**
 * The workflow an update or signal was sent to has no open run (never started, or over): the server answers
 * NOT_FOUND, or a message naming the run as completed or closed.
 */
export function runIsOver(err: unknown): boolean {
  // Nothing was refused while Temporal is out of reach (a dropped channel's "closed", a namespace "not found" for a
  // moment after a failover): only an answer from a server that has the run can say it is over.
  if (temporalOutOfReach(err)) return false;
  return err instanceof WorkflowNotFoundError || (err instanceof Error && /not found|completed|closed/i.test(err.message));
}

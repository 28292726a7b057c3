import { withLease } from '../../../db/leases';
import type { ApiDeps } from '../../../api/context';

/**
 * Runs `work` as the only request updating one workflow (a quote's or a payment's): execution,
 * funding and cancel attempts take turns. A burst of concurrent updates to one workflow makes
 * Temporal fail its workflow tasks and reject or stall the updates (100 concurrent executes of one
 * quote answered 500s, or hung; 100 cancels re-ran its local activities and sent every webhook
 * three times), so each attempt waits for the one before, then reads the state afresh.
 */
export function oneAttemptAtATime<T>(deps: ApiDeps, workflowId: string, work: () => Promise<T>): Promise<T> {
  return withLease(deps.orm, `workflow-updates:${workflowId}`, work);
}

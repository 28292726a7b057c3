import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { DomainError, type ErrorCode } from '../../../domain/errors';
import { fundStablecoinOperation, submitStablecoinOperation } from '../starters/stablecoin-operation';
import { SUBMISSION_REFUSALS } from '../domain/operation-rules';
import { StablecoinOperation } from '../entities';
import { findOperation } from './operations';
import { stablecoinTiming } from './stablecoin-timing';
import { operationView, type StablecoinOperationView } from './stablecoin-views';

interface Engine {
  temporal: Client;
  taskQueue?: string;
}

/**
 * A recorded operation as the create request answers it: submitted to the provider first (by its
 * workflow) when it is still CREATED; refused with the provider's code when submitting it failed.
 * An operation past CREATED is not submitted again: a repeat answers where it stands.
 */
export async function submittedOperation(em: EntityManager, engine: Engine, operation: StablecoinOperation): Promise<StablecoinOperationView> {
  if (operation.status === 'CREATED') {
    await submitStablecoinOperation(engine.temporal, operation, stablecoinTiming(), { taskQueue: engine.taskQueue });
  }
  const current = await em.fork().findOneOrFail(StablecoinOperation, { id: operation.id });
  const refusal =
    current.status === 'FAILED' && current.failureReason ? SUBMISSION_REFUSALS[current.failureReason as keyof typeof SUBMISSION_REFUSALS] : undefined;
  if (refusal) throw new DomainError(refusal.code as ErrorCode, refusal.message, { stablecoinOperationId: current.id });
  return operationView(current);
}

/** Sandbox: the funds a PENDING_FUNDING operation waits for arrive; anything else is 409. */
export async function fundOperation(em: EntityManager, engine: Engine, platformId: string, id: string): Promise<StablecoinOperationView> {
  const op = await findOperation(em, platformId, id);
  if (op.status !== 'PENDING_FUNDING')
    throw new DomainError('INVALID_STATE_TRANSITION', `The operation is ${op.status}; only a PENDING_FUNDING operation receives funds`);
  await fundStablecoinOperation(engine.temporal, op.id);
  return operationView(await em.fork().findOneOrFail(StablecoinOperation, { id }));
}

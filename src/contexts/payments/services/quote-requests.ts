import type { EntityManager } from '@mikro-orm/postgresql';
import { Platform, type Environment } from '../../platforms';
import { loadScaCustomer } from '../../sca';
import { DomainError } from '../../../domain/errors';
import { logger } from '../../../logger';
import { executionRequestKey } from '../domain/execution-attempts';
import { Quote } from '../entities';
import { executeQuoteCreatedForRequest, issueChallenge, type ExecutionDeps } from './quote-execute';
import { startQuoteWorkflow } from './quote-execution-start';
import { createQuote, quoteIds, readQuoteRequestRows, type QuoteRequest } from './quotes';

/** A quote of the caller's platform, or 404 QUOTE_NOT_FOUND. */
export async function findQuote(em: EntityManager, platformId: string, quoteId: string): Promise<Quote> {
  const q = await em.findOne(Quote, { id: quoteId, platformId });
  if (!q) throw DomainError.notFound('Quote');
  return q;
}

/** 409 CONFLICT unless the quote's customer is one of an SCA region (404 if it is gone). */
export async function assertScaCustomer(em: EntityManager, q: Quote): Promise<void> {
  if (!q.customerId) throw new DomainError('CONFLICT', "Strong Customer Authentication is not required: the quote is the platform's own");
  await loadScaCustomer(em, q.platformId, q.customerId);
}

export interface QuoteCreationRequest {
  platformId: string;
  environment: Environment;
  request: QuoteRequest;
  /** The request's Idempotency-Key as the quote machinery sees it (an agent's is scoped to the agent). */
  idempotencyKey?: string;
  /** The agent making the quote: the quote carries it, so the agent's policy gate judges its execution. */
  agentId?: string;
  /** Runs once the quote is recorded, before its workflow starts (an agent records the quote as its own). */
  afterCreation?: (quote: Quote) => Promise<void>;
}

/** A created quote as its request answers it; awaitingAuthorization: held for its customer's SCA proof (202, with its challenge). */
export interface QuoteCreated {
  quote: Quote;
  awaitingAuthorization: boolean;
}

/**
 * The one create use case (POST /quotes, an agent's quote): the quote is recorded, then executed
 * at once (immediatelyExecute, through the one execute use case) or its workflow started (it
 * expires the quote on its timer). A real-time quote of a customer of an SCA region waits for its
 * customer's proof: its funding challenge is issued. The quote is read again when something moved it on.
 */
export async function createQuoteForRequest(em: EntityManager, deps: ExecutionDeps, creation: QuoteCreationRequest): Promise<QuoteCreated> {
  const { platformId, request, idempotencyKey } = creation;
  // One statement reads what the request names; the checks find it in memory.
  const platform =
    (await readQuoteRequestRows(em, platformId, request, idempotencyKey ? quoteIds(platformId, idempotencyKey).quoteId : null)) ??
    (await em.findOneOrFail(Platform, { id: platformId }));
  const q = await createQuote(em, {
    platform,
    environment: creation.environment,
    request,
    ...(creation.agentId ? { agentId: creation.agentId } : {}),
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
  await creation.afterCreation?.(q);
  if (request.immediatelyExecute) {
    await executeQuoteCreatedForRequest(em, deps, { quote: q, requestKey: executionRequestKey(idempotencyKey) });
  } else {
    try {
      await startQuoteWorkflow(deps.temporal, q, deps.taskQueue ? { taskQueue: deps.taskQueue } : {});
    } catch (err) {
      // Recorded already; executing it starts its workflow, and an unexecuted one simply cannot be executed after expiresAt.
      logger.error({ err, quoteId: q.id }, 'could not start the quote workflow');
    }
  }
  // SCA: a real-time quote of a customer of an SCA region is answered with its challenge and without payment instructions.
  if (q.status === 'PENDING_AUTHORIZATION') {
    await issueChallenge(em, deps, q, 'QUOTE_FUNDING');
    return { quote: await em.fork().findOneOrFail(Quote, { id: q.id }), awaitingAuthorization: true };
  }
  // Read again: an immediate execution has moved it on.
  return { quote: request.immediatelyExecute ? await em.fork().findOneOrFail(Quote, { id: q.id }) : q, awaitingAuthorization: false };
}

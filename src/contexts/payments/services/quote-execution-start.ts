import type { Client } from '@temporalio/client';
import { executeQuote, startQuote } from '../../../temporal/starters/quote';
import type { Quote } from '../entities';
import { workflowInput } from './quote-workflow-input';

/**
 * Executes a quote through its payment's workflow (update-with-start; the update id is the
 * request's key, so a retry of the request is answered with its first outcome): what
 * POST /quotes/{id}/execute does, for callers outside the payments context (an agent's execution).
 */
export function executeQuoteRequest(temporal: Client, quote: Quote, options: { requestKey: string; taskQueue?: string }) {
  return executeQuote(temporal, workflowInput(quote), { requestKey: options.requestKey, ...(options.taskQueue ? { taskQueue: options.taskQueue } : {}) });
}

/** Starts a new quote's payment workflow (it expires the quote on its timer), as POST /quotes does. */
export function startQuoteWorkflow(temporal: Client, quote: Quote, options: { taskQueue?: string } = {}) {
  return startQuote(temporal, workflowInput(quote), options.taskQueue ? { taskQueue: options.taskQueue } : {});
}

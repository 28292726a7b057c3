import type { Client } from '@temporalio/client';
import { startQuote } from '../starters/payment';
import type { Quote } from '../entities';
import { workflowInput } from './quote-workflow-input';

/** Starts a new quote's payment workflow (it expires the quote on its timer), as POST /quotes does. */
export function startQuoteWorkflow(temporal: Client, quote: Quote, options: { taskQueue?: string } = {}) {
  return startQuote(temporal, workflowInput(quote), options.taskQueue ? { taskQueue: options.taskQueue } : {});
}

import { Context } from '@temporalio/activity';
import { completeOutgoingPayment, expireQuote, failOutgoingPayment, returnOutgoingPayment, returnPulledPayment, type FailureKind, type StepResult } from '../../src/contexts/payments/services/outgoing-payments';
import { executeQuote, fundQuote, type Execution } from '../../src/contexts/payments/services/quote-execution';
import type { ActivityDeps } from '../deps';
import { countFinishedPayment } from '../metrics';

/**
 * Whether a quote found executed was executed by an earlier request (a repeat), and not by an
 * earlier attempt of this very step whose commit outlived its timeout. Only a first attempt can
 * tell; a retry that finds it done is counted as the step's own, never as a repeat.
 */
function withRepeat(execution: Execution): Execution & { repeat: boolean } {
  return { ...execution, repeat: execution.alreadyExecuted && Context.current().info.attempt === 1 };
}

/** The quote's and the outgoing payment's steps: each one database transaction with its webhook events. */
export function outgoingPaymentActivities({ orm, metrics }: ActivityDeps) {
  /** Counts the ending a step committed; the workflow gets the events only, as before. */
  const ending = async (step: Promise<StepResult>) => {
    const { events, finished } = await step;
    countFinishedPayment(metrics, finished);
    return { events };
  };
  return {
    async executeQuote(input: { quoteId: string }) {
      return withRepeat(await executeQuote(orm.em.fork(), input));
    },
    async fundQuote(input: { quoteId: string; amount: string }) {
      return withRepeat(await fundQuote(orm.em.fork(), input));
    },
    async expireQuote(input: { quoteId: string }) {
      return expireQuote(orm.em.fork(), input);
    },
    async completeOutgoingPayment(input: { transactionId: string }) {
      return ending(completeOutgoingPayment(orm.em.fork(), input));
    },
    async failOutgoingPayment(input: { transactionId: string; kind: FailureKind }) {
      return ending(failOutgoingPayment(orm.em.fork(), input));
    },
    async returnOutgoingPayment(input: { transactionId: string }) {
      return ending(returnOutgoingPayment(orm.em.fork(), input));
    },
    async returnPulledPayment(input: { transactionId: string }) {
      return ending(returnPulledPayment(orm.em.fork(), input));
    },
  };
}

import {
  completeOutgoingPayment,
  expireQuote,
  failOutgoingPayment,
  returnOutgoingPayment,
  returnPulledPayment,
  type FailureKind,
  type StepResult,
} from '../../src/contexts/payments/services/outgoing-payments';
import {
  endHeldExecution,
  fundQuote,
  runExecutionStep,
  type EndHeldExecutionInput,
  type ExecuteQuoteInput,
} from '../../src/contexts/payments/services/quote-execution';
import { EXECUTION_GATES } from '../../src/contexts/execution-gates';
import type { ActivityDeps } from '../deps';
import { countFinishedPayment } from '../metrics';

/** The quote's and the outgoing payment's steps: each one database transaction with its webhook events. */
export function outgoingPaymentActivities({ orm, metrics, executionGates = EXECUTION_GATES }: ActivityDeps) {
  /** Counts the ending a step committed; the workflow gets the events only, as before. */
  const ending = async (step: Promise<StepResult>) => {
    const { events, finished } = await step;
    countFinishedPayment(metrics, finished);
    return { events };
  };
  return {
    // The activity keeps its name: recorded histories schedule `executeQuote`. It runs the execution step.
    async executeQuote(input: ExecuteQuoteInput) {
      return runExecutionStep(orm.em.fork(), input, executionGates);
    },
    async fundQuote(input: { quoteId: string; amount: string }) {
      return fundQuote(orm.em.fork(), input, executionGates);
    },
    async endHeldExecution(input: EndHeldExecutionInput) {
      return endHeldExecution(orm.em.fork(), input, executionGates);
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

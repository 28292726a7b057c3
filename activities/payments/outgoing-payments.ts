import { completeOutgoingPayment, executeQuote, expireQuote, fundQuote, failOutgoingPayment, returnOutgoingPayment, returnPulledPayment, type FailureKind } from '../../src/contexts/payments/services/outgoing-payments';
import type { ActivityDeps } from '../deps';

/** The quote's and the outgoing payment's steps: each one database transaction with its webhook events. */
export function outgoingPaymentActivities({ orm }: ActivityDeps) {
  return {
    async executeQuote(input: { quoteId: string }) {
      return executeQuote(orm.em.fork(), input);
    },
    async fundQuote(input: { quoteId: string; amount: string }) {
      return fundQuote(orm.em.fork(), input);
    },
    async expireQuote(input: { quoteId: string }) {
      return expireQuote(orm.em.fork(), input);
    },
    async completeOutgoingPayment(input: { transactionId: string }) {
      return completeOutgoingPayment(orm.em.fork(), input);
    },
    async failOutgoingPayment(input: { transactionId: string; kind: FailureKind }) {
      return failOutgoingPayment(orm.em.fork(), input);
    },
    async returnOutgoingPayment(input: { transactionId: string }) {
      return returnOutgoingPayment(orm.em.fork(), input);
    },
    async returnPulledPayment(input: { transactionId: string }) {
      return returnPulledPayment(orm.em.fork(), input);
    },
  };
}

import { proxyLocalActivities } from '@temporalio/workflow';
import type { PaymentActivities } from '../../activities/payments';

// Short database steps: local activities, no task round trip through the server. Refusals (every
// DomainError: an expired quote, insufficient funds, a gate's code) reach the workflow as
// non-retryable failures already (activities/failures.ts), so no list of them is kept here.
export const {
  executeQuote,
  fundQuote,
  expireQuote,
  endHeldExecution,
  completeOutgoingPayment,
  failOutgoingPayment,
  returnOutgoingPayment,
  returnPulledPayment,
} = proxyLocalActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

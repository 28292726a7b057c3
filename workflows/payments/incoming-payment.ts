import { proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { PaymentActivities } from '../../activities/payments';
import { ERROR } from '../../src/domain/errors';
import type { TransactionStatus } from '../../src/contexts/payments/domain/transaction-state';
import { BusinessStatusKey, CustomerIdKey, TransactionIdKey } from '../../src/temporal/search-attributes';
import { announceEvents } from '../webhooks/announce';
import { incomingPaymentStatusQuery, type IncomingPaymentInput, type IncomingPaymentResult } from '../definitions';

const { createIncomingTransaction, settleIncomingPayment, recordIncomingPaymentEvents } = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: [ERROR.ACCOUNT_NOT_FOUND, ERROR.INSUFFICIENT_FUNDS, ERROR.CUSTOMER_DELETED, ERROR.USER_NOT_READY, ERROR.END_USER_TERMS_NOT_ACCEPTED] },
});

/**
 * An incoming payment to an internal account (workflow id = the transaction id): recorded as
 * PENDING, credited to the ledger and completed in one database transaction, then announced
 * by webhook workflows of its own.
 */
export async function incomingPayment(input: IncomingPaymentInput): Promise<IncomingPaymentResult> {
  let status: TransactionStatus = 'PENDING';
  setHandler(incomingPaymentStatusQuery, () => status);

  await createIncomingTransaction(input);
  await settleIncomingPayment({ transactionId: input.transactionId });
  status = 'COMPLETED';
  upsertSearchAttributes([{ key: BusinessStatusKey, value: status }]);

  const webhookEventIds = await announce(input);
  return { transactionId: input.transactionId, status, webhookEventIds };
}

/** Records the events of the transaction's status and starts their deliveries. */
async function announce(input: IncomingPaymentInput): Promise<string[]> {
  const events = await recordIncomingPaymentEvents({ transactionId: input.transactionId, environment: input.environment });
  await announceEvents(input.platformId, events, [
    { key: TransactionIdKey, value: input.transactionId },
    ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
  ]);
  return events.map((e) => e.eventId);
}

import { ParentClosePolicy, proxyActivities, setHandler, startChild, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { TransactionStatus } from '../src/domain/transaction-state';
import { BusinessStatusKey, CustomerIdKey, PlatformIdKey, TransactionIdKey, WebhookEventTypeKey } from '../src/temporal/search-attributes';
import { incomingPaymentStatusQuery, type IncomingPaymentInput, type IncomingPaymentResult } from './definitions';
import { webhookDelivery } from './webhook-delivery';

const { createIncomingTransaction, settleIncomingPayment, recordIncomingPaymentEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: ['ACCOUNT_NOT_FOUND', 'INSUFFICIENT_FUNDS'] },
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

/** Starts one delivery workflow per event; they outlive this workflow (ABANDON). */
async function announce(input: IncomingPaymentInput): Promise<string[]> {
  const events = await recordIncomingPaymentEvents({ transactionId: input.transactionId, environment: input.environment });
  for (const { eventId, type } of events) {
    await startChild(webhookDelivery, {
      workflowId: eventId,
      args: [{ eventId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: [
        { key: PlatformIdKey, value: input.platformId },
        { key: TransactionIdKey, value: input.transactionId },
        { key: WebhookEventTypeKey, value: type },
        ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
      ],
    });
  }
  return events.map((e) => e.eventId);
}

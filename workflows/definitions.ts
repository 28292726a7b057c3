import { defineQuery } from '@temporalio/workflow';
import type { DeliveryOutcome, WebhookRetryPolicy } from '../src/domain/webhook-retry';
import type { TransactionStatus } from '../src/domain/transaction-state';

/** Inputs, results and queries shared by workflows and the API that starts them. */

export interface IncomingPaymentInput {
  transactionId: string;
  platformId: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  customerId: string | null;
  internalAccountId: string;
  currency: string;
  /** Integer in the smallest unit, as a decimal string (Temporal payloads are JSON). */
  amount: string;
  source: { sourceType: 'SANDBOX_FUNDING' } | { sourceType: 'ACCOUNT'; accountId: string };
}

export interface IncomingPaymentResult {
  transactionId: string;
  status: TransactionStatus;
  webhookEventIds: string[];
}

export const incomingPaymentStatusQuery = defineQuery<TransactionStatus>('status');

export interface WebhookDeliveryInput {
  eventId: string;
  /** Single attempt, no retries: used by the synchronous test webhook. */
  singleAttempt?: boolean;
  policy?: WebhookRetryPolicy;
  /** Carried across continue-as-new so the horizon counts from the first attempt. */
  attemptsSoFar?: number;
  elapsedSeconds?: number;
}

export interface WebhookDeliveryResult {
  eventId: string;
  delivered: boolean;
  attempts: number;
  /** Back-off time spent between the first and the last attempt. */
  elapsedSeconds: number;
  lastOutcome: DeliveryOutcome;
}

export const webhookAttemptsQuery = defineQuery<number>('attempts');

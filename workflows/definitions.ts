import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { ERROR } from '../src/domain/errors';
import type { DeliveryOutcome, WebhookRetryPolicy } from '../src/contexts/webhooks/domain/webhook-retry';
import type { TransactionStatus } from '../src/contexts/payments/domain/transaction-state';

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

export type VerificationStatusValue = 'READY_FOR_VERIFICATION' | 'RESOLVE_ERRORS' | 'IN_PROGRESS' | 'PENDING_MANUAL_REVIEW' | 'APPROVED' | 'REJECTED';

export interface CustomerVerificationInput {
  /** Also the workflow id: one verification (and workflow) per customer. */
  verificationId: string;
  platformId: string;
  customerId: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  /** Seconds between a complete submission and its sandbox decision (a durable timer). */
  resolutionDelaySeconds: number;
}

export interface CustomerVerificationResult {
  verificationId: string;
  /** The last status; RESOLVE_ERRORS when the run ended waiting for a corrected packet. */
  verificationStatus: VerificationStatusValue | null;
  submissions: number;
}

/** The verification as POST /verifications returns it. */
export interface VerificationSnapshot {
  id: string;
  customerId: string;
  verificationStatus: VerificationStatusValue;
  errors: { resourceId: string; type: string; field?: string; acceptedDocumentTypes?: string[]; reason: string }[];
  createdAt: string;
  updatedAt: string;
}

/**
 * A submission (POST /verifications): evaluated at once, answered with the verification. A
 * resubmission goes to the running workflow rather than starting a second one.
 */
export const submitVerification = defineUpdate<VerificationSnapshot, []>('submitVerification');

export const verificationStatusQuery = defineQuery<VerificationStatusValue | null>('verificationStatus');

/** ApplicationFailure type of a submission refused because the customer is already decided. */
export const VERIFICATION_ALREADY_DECIDED = ERROR.VERIFICATION_ALREADY_DECIDED;

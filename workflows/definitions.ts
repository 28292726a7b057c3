import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { ERROR } from '../src/domain/errors';
import type { DeliveryOutcome, WebhookRetryPolicy } from '../src/contexts/webhooks/domain/webhook-retry';
import type { TransactionStatus } from '../src/contexts/payments/domain/transaction-state';
import type { PayoutPlan } from '../src/contexts/payments/domain/payout-scenarios';
import type { PullPlan } from '../src/contexts/payments/domain/pull-scenarios';
import type { InvitationView } from '../src/contexts/invitations/services/invitation-views';

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
  source: { sourceType: 'SANDBOX_FUNDING' } | { sourceType: 'ACCOUNT'; accountId: string } | { sourceType: 'UMA_ADDRESS'; umaAddress: string };
}

export interface IncomingPaymentResult {
  transactionId: string;
  status: TransactionStatus;
  webhookEventIds: string[];
  /** Why the payment was refused (status FAILED): an error code and its message. */
  refusal?: { code: string; message: string };
}

export const incomingPaymentStatusQuery = defineQuery<TransactionStatus>('status');

/** What the single posting step of an incoming payment did (see postIncomingPayment). */
export interface PostedPayment {
  transactionId: string;
  status: TransactionStatus;
  events: { eventId: string; type: string }[];
  /** Set when the money-movement policy refused the payment: the transaction is FAILED. */
  refusal?: { code: string; message: string };
}

/**
 * Answered as soon as the money is posted (or refused), while the workflow goes on to announce
 * the payment: the API sends it with the workflow's start (update-with-start) and replies to
 * the caller without waiting for webhook delivery.
 */
export const incomingPaymentPosted = defineUpdate<IncomingPaymentResult, []>('posted');

export interface WebhookDeliveryInput {
  eventId: string;
  /** Single attempt, no retries: used by the synchronous test webhook. */
  singleAttempt?: boolean;
  policy?: WebhookRetryPolicy;
  /** Carried across continue-as-new so the horizon counts from the first attempt. */
  attemptsSoFar?: number;
  /**
   * Wait this long before the first attempt of this run: set when the workflow that recorded
   * the event already made the first attempt and hands the retries over.
   */
  firstAttemptAfterSeconds?: number;
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

export interface ExternalAccountVerificationInput {
  /** Also the workflow id: one verification workflow per external account. */
  externalAccountId: string;
  platformId: string;
  customerId: string | null;
  environment: 'SANDBOX' | 'PRODUCTION';
  /** A name check answered PENDING resolves after this long (a durable timer). */
  nameCheckAfterSeconds?: number;
  /** A US account's micro-entry return window: banking days (sandbox: seconds) counted at registration. */
  bankValidationAfterSeconds?: number;
}

export type OwnershipMethodValue = 'WALLET_SIGNATURE' | 'LIVENESS';

export type OwnershipChallengeView =
  | { method: 'WALLET_SIGNATURE'; messageToSign: string; expiresAt: string }
  | { method: 'LIVENESS'; verificationLink: string; token?: string; expiresAt: string };

export interface OwnershipSignatureResult {
  outcome: 'PASSED' | 'FAILED' | 'EXPIRED' | 'NO_CHALLENGE';
  reason?: string;
  /** The account after the attempt (the API's ExternalAccount). */
  account: unknown;
}

/** POST …/challenge: issues a challenge, replacing any in flight, and answers with it. */
export const openOwnershipChallengeUpdate = defineUpdate<OwnershipChallengeView, [{ method: OwnershipMethodValue; livenessLink: string }]>(
  'openOwnershipChallenge',
);
/** POST …/verify: checks a wallet signature against the outstanding challenge. */
export const submitOwnershipSignatureUpdate = defineUpdate<OwnershipSignatureResult, [{ signature: string; signatureScheme?: 'bip137' | 'electrum' }]>(
  'submitOwnershipSignature',
);
/** The hosted liveness flow finished (simulated by a sandbox endpoint). */
export const livenessCompletedSignal = defineSignal<[{ challengeId: string; passed: boolean }]>('livenessCompleted');

export interface QuoteInput {
  /** Also the workflow id. */
  quoteId: string;
  transactionId: string;
  platformId: string;
  customerId: string | null;
  environment: 'SANDBOX' | 'PRODUCTION';
  /** How long the quote may be executed (a durable timer; expiresAt is stamped in the database). */
  lifetimeSeconds: number;
}

export interface QuoteExecution {
  transactionId: string;
  /**
   * True when an earlier request had executed (or funded) the quote already: this one changed
   * nothing. The execute route answers it 409, as the reference does for an executed quote.
   */
  repeat?: boolean;
}

/** POST /quotes/{id}/execute: answered with the transaction once the funds are held. */
export const executeQuoteUpdate = defineUpdate<QuoteExecution, []>('execute');
/** A real-time-funded quote's money arrived (sandbox: POST /sandbox/send); amount in minor units as a decimal string. */
export const fundQuoteUpdate = defineUpdate<QuoteExecution, [{ amount: string }]>('fund');

export interface OutgoingPaymentInput {
  /** Also the workflow id. */
  transactionId: string;
  quoteId: string;
  platformId: string;
  customerId: string | null;
  plan: PayoutPlan;
  /** Present when the money is pulled from the customer's external account: the bank's answer to the pull. */
  pull?: PullPlan;
  /**
   * The execution's webhook events (PROCESSING, the payer's balance), recorded by the quote's
   * workflow for this one to deliver, with its first step's. Runs started without it deliver
   * their own step's events through an activity, as before.
   */
  announce?: { eventId: string; type: string }[];
}

/**
 * POST /transactions/{id}/cancel: stops a payout the bank has not settled yet. Answered once the
 * payment is FAILED and its funds refunded; refused (TRANSACTION_NOT_CANCELLABLE) once settled.
 */
export const cancelPayoutUpdate = defineUpdate<{ transactionId: string }, [{ reason?: string }]>('cancel');
export const TRANSACTION_NOT_CANCELLABLE = 'TRANSACTION_NOT_CANCELLABLE';

export interface CardLifecycleInput {
  /** Also the workflow id: one lifecycle workflow per card. */
  cardId: string;
  platformId: string;
  customerId: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  /** The simulated issuer's answer comes after this long (a durable timer). */
  issuerResponseSeconds: number;
  /** How long an authorization's hold lasts before it is released. */
  authorizationWindowSeconds: number;
  /** When a delayed pull (sandbox descriptors 005, 006) is confirmed; 30 s when absent. */
  pullConfirmationSeconds?: number;
  /** Pulls awaiting confirmation, carried across continue-as-new. */
  pendingPulls?: string[];
  /** Authorizations with an open hold, carried across continue-as-new (their expiry is stamped in the database). */
  openAuthorizations?: string[];
}

/** PATCH /cards/{id}: answered with the card (the API's Card), or refused with the spec's 409 code. */
export interface CardChangeArgs {
  state?: 'ACTIVE' | 'FROZEN' | 'CLOSED';
  fundingSources?: string[];
  /** Decimal string; null clears the limit. */
  maxSpendPerTransaction?: string | null;
}
export const changeCardUpdate = defineUpdate<unknown, [CardChangeArgs]>('changeCard');

/** A card network event (sandbox simulations): applied on the card's workflow, answered with its outcome. */
export interface CardNetworkEventArgs {
  token: string;
  event:
    | {
        kind:
          | 'AUTHORIZATION'
          | 'CREDIT_AUTHORIZATION'
          | 'FINANCIAL_AUTHORIZATION'
          | 'FINANCIAL_CREDIT_AUTHORIZATION'
          | 'CREDIT_AUTHORIZATION_ADVICE'
          | 'BALANCE_INQUIRY';
        cardTransactionId: string;
        amount: string;
        currency: string;
        merchant: { descriptor: string; mcc?: string; country?: string };
      }
    | { kind: 'CLEARING' | 'AUTHORIZATION_ADVICE' | 'RETURN' | 'RETURN_REVERSAL'; cardTransactionId: string; amount?: string };
}
export interface CardNetworkEventOutcome {
  issuerTransactionToken: string;
  cardTransactionId?: string;
  declineReason?: string;
}
export const cardNetworkEventUpdate = defineUpdate<CardNetworkEventOutcome, [CardNetworkEventArgs]>('cardNetworkEvent');

export interface BulkCustomerImportInput {
  /** Also the workflow id: one import workflow per job. */
  jobId: string;
  platformId: string;
  /** Carried across continue-as-new: the job's row count (read once, by the first run). */
  totalRows?: number;
  /** Carried across continue-as-new: the first row this run processes (1-based). */
  nextRow?: number;
}

export interface BulkCustomerImportResult {
  jobId: string;
  status: string;
}

/** Rows per batch: one activity processes them, each row in a database transaction of its own. */
export const BULK_IMPORT_BATCH_ROWS = 100;
/** Batches per run before continue-as-new, so that a 10,000-row file keeps every history short. */
export const BULK_IMPORT_BATCHES_PER_RUN = 20;

export interface InvitationLifecycleInput {
  /** Also the workflow id: one lifecycle workflow per invitation. */
  code: string;
  platformId: string;
  inviterCustomerId: string;
  /**
   * How long until expiresAt, counted by the starter when it starts the run (a durable timer; the
   * activity judges expiry against the stored expiresAt); null: it waits for a claim or a cancellation.
   */
  expiresInMs: number | null;
}

/** POST /invitations/{code}/claim: answered with the claimed invitation, or refused with its §7 code. */
export const claimInvitationUpdate = defineUpdate<InvitationView, [{ inviteeUma: string }]>('claimInvitation');
/** POST /invitations/{code}/cancel: answered with the cancelled invitation. */
export const cancelInvitationUpdate = defineUpdate<InvitationView, []>('cancelInvitation');

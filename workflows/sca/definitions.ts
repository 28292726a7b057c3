import { defineUpdate } from '@temporalio/workflow';
import type { WorkflowKind } from '../../src/temporal/workflow-kind';

/** Contract of the scaChallenge workflow (one per payment challenge, workflow id = challenge id), shared with its starter, activities and tests. */

export interface ScaChallengeInput {
  /** Also the workflow id. */
  challengeId: string;
  platformId: string;
  customerId: string;
  quoteId: string;
  /** The payment's workflow id, which the outcome is signalled to. */
  transactionId: string;
  /** QUOTE_FUNDING (a real-time quote's instructions) or HELD_EXECUTION (an execution the SCA gate holds). */
  kind: 'QUOTE_FUNDING' | 'HELD_EXECUTION';
  /** SMS_OTP codes can be re-sent; passkey challenges cannot. */
  factor: 'SMS_OTP' | 'PASSKEY';
  /** How long until the challenge's expiresAt, counted by the starter (a durable timer); 0 expires it at once. */
  expiresInMs: number;
}

/** The proof of POST /quotes/{id}/authorize (ScaAuthorization). */
export interface ScaProof {
  code?: string | null;
  passkeyAssertion?: Record<string, unknown> | null;
  origin?: string | null;
  endUserIpAddress?: string | null;
}

/** What an authorize answers: the challenge is authorized (the payment hears it); `next` names the quote's next challenge, if any. */
export interface ChallengeAuthorized {
  challengeId: string;
  transactionId: string;
  /** The challenge the quote carries next (a quote may need more than one authorization), started by the caller. */
  next?: { challengeId: string; expiresAt: string };
}

/** POST /quotes/{id}/authorize: answered once the proof is checked; refused with its §7 code (a wrong proof, a void or lapsed challenge). */
export const authorizeChallengeUpdate = defineUpdate<ChallengeAuthorized, [ScaProof]>('authorize');
/** POST /quotes/{id}/authorize/resend: the SMS code goes out again; the expiry stays. */
export const resendChallengeUpdate = defineUpdate<void, []>('resend');

/** What the outcome does to the payment when the challenge ends unsatisfied. */
export const SCA_NOT_COMPLETED = 'SCA_NOT_COMPLETED';

/** The scaChallenge workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). */
export const SCA_CHALLENGE_WORKFLOW: WorkflowKind<'scaChallenge', (input: ScaChallengeInput) => Promise<string>> = {
  type: 'scaChallenge',
  taskQueue: 'onboarding',
  versioning: 'PINNED',
};

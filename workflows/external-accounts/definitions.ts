import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { WorkflowKind } from '../../src/temporal/workflow-kind';

/** Input, updates and signal of the externalAccountVerification workflow, shared with the API that starts it. */

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

/** The externalAccountVerification workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). */
export const EXTERNAL_ACCOUNT_VERIFICATION_WORKFLOW: WorkflowKind<'externalAccountVerification', (input: ExternalAccountVerificationInput) => Promise<void>> = {
  type: 'externalAccountVerification',
  taskQueue: 'onboarding',
  versioning: 'AUTO_UPGRADE',
};

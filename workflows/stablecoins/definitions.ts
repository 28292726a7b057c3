import { defineUpdate } from '@temporalio/workflow';
import type { OperationStatus } from '../../src/contexts/stablecoins/domain/operation-rules';
import type { WorkflowKind } from '../../src/temporal/workflow-kind';

/** Inputs and updates of the stablecoin workflows, shared with the API that starts them. */

export interface StablecoinTiming {
  /** The sandbox provider's review, then its provisioning, of a registered token. */
  reviewSeconds: number;
  provisioningSeconds: number;
  /** How long a wire-funded mint or an external-wallet burn waits for its funds. */
  fundingWindowSeconds: number;
  /** Until the provider takes a submitted order up, then until it finishes it. */
  providerSeconds: number;
  settlementSeconds: number;
}

export interface StablecoinIssuanceInput {
  stablecoinId: string;
  platformId: string;
  timing: StablecoinTiming;
}

export interface StablecoinOperationInput {
  operationId: string;
  stablecoinId: string;
  platformId: string;
  timing: StablecoinTiming;
}

/** Where an operation stands after a step; `refusal` when submitting it was refused (it is FAILED). */
export interface StablecoinStepOutcome {
  status: OperationStatus;
  fundingWindowMs?: number;
  refusal?: { code: string; message: string };
}

/** Answered once the operation has been submitted to the provider (update-with-start). */
export const submitStablecoinOperationUpdate = defineUpdate<StablecoinStepOutcome>('submitStablecoinOperation');
/** The funds an operation waits for arrived (sandbox). */
export const fundStablecoinOperationUpdate = defineUpdate<StablecoinStepOutcome>('fundStablecoinOperation');

/** The stablecoinIssuance workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). */
export const STABLECOIN_ISSUANCE_WORKFLOW: WorkflowKind<'stablecoinIssuance', (input: StablecoinIssuanceInput) => Promise<{ issuanceStatus: string }>> = {
  type: 'stablecoinIssuance',
  taskQueue: 'stablecoins',
  versioning: 'PINNED',
};

/** The stablecoinOperation workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). */
export const STABLECOIN_OPERATION_WORKFLOW: WorkflowKind<'stablecoinOperation', (input: StablecoinOperationInput) => Promise<{ status: string }>> = {
  type: 'stablecoinOperation',
  taskQueue: 'stablecoins',
  versioning: 'PINNED',
};

import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ErrorCode } from '../../src/domain/errors';
import type { WorkflowKind } from '../../src/temporal/workflow-kind';

/** Inputs, results, queries and updates of the customers workflows, shared with the API that starts them. */

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

/**
 * ApplicationFailure type of a submission refused because the customer is already decided. A
 * literal checked against the error codes, so that this file imports types only.
 */
export const VERIFICATION_ALREADY_DECIDED = 'VERIFICATION_ALREADY_DECIDED' satisfies ErrorCode;

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

/** The customerVerification workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). */
export const CUSTOMER_VERIFICATION_WORKFLOW: WorkflowKind<'customerVerification', (input: CustomerVerificationInput) => Promise<CustomerVerificationResult>> = {
  type: 'customerVerification',
  taskQueue: 'onboarding',
  versioning: 'AUTO_UPGRADE',
};

/** The bulkCustomerImport workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). */
export const BULK_CUSTOMER_IMPORT_WORKFLOW: WorkflowKind<'bulkCustomerImport', (input: BulkCustomerImportInput) => Promise<BulkCustomerImportResult>> = {
  type: 'bulkCustomerImport',
  taskQueue: 'bulk',
  versioning: 'PINNED',
};

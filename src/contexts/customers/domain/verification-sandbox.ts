import type { CustomerType, KycStatus } from '../entities/Customer';
import { IDENTITY_DOCUMENTS } from './documents';
import { sandboxSuffix } from './onboarding';
import type { PacketDocument, VerificationError } from './verification-requirements';

export const VERIFICATION_STATUSES = ['READY_FOR_VERIFICATION', 'RESOLVE_ERRORS', 'IN_PROGRESS', 'PENDING_MANUAL_REVIEW', 'APPROVED', 'REJECTED'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** Seconds between a complete submission and its sandbox decision (a durable workflow timer). */
export const SANDBOX_RESOLUTION_DELAY_SECONDS = 10;

/**
 * What a POST /verifications does, decided by the sandbox rules (spec §8, the lead's rules):
 *
 * - A customer already APPROVED or REJECTED: refused (400).
 * - Regulated platform, business: the last three characters of businessInfo.registrationNumber
 *   decide. 002 → REJECTED at once; 001 and 003 → real validation: RESOLVE_ERRORS until the packet
 *   is complete, then 003 IN_PROGRESS and 001 PENDING_MANUAL_REVIEW, both APPROVED after the
 *   timer; anything else → APPROVED at once.
 * - Regulated platform, individual (resolved at creation by fullName; only 001 PENDING, 003
 *   UNVERIFIED or HOLD get here): RESOLVE_ERRORS while incomplete; then by fullName suffix
 *   001 → PENDING_MANUAL_REVIEW then APPROVED; 003 → RESOLVE_ERRORS with POOR_QUALITY_DOCUMENT
 *   on each identity document (reference §8.1); 002 → IN_PROGRESS then REJECTED; else
 *   IN_PROGRESS then APPROVED.
 * - Unregulated platform: RESOLVE_ERRORS while incomplete; a complete packet → IN_PROGRESS then
 *   APPROVED after the timer, or REJECTED for an individual whose fullName ends in 002.
 */
export type SubmissionDecision =
  | { kind: 'REFUSED'; reason: string }
  | { kind: 'RESOLVE_ERRORS'; errors: VerificationError[] }
  | { kind: 'DECIDED'; status: 'APPROVED' | 'REJECTED' }
  | { kind: 'LATER'; status: 'IN_PROGRESS' | 'PENDING_MANUAL_REVIEW'; outcome: 'APPROVED' | 'REJECTED' };

export interface SubmissionFacts {
  regulated: boolean;
  customerType: CustomerType;
  customerId: string;
  kycStatus: KycStatus;
  fullName?: string | null;
  registrationNumber?: string | null;
  /** The packet's missing requirements (verification-requirements). */
  errors: VerificationError[];
  /** The customer's own documents (for the 003 document-quality scenario). */
  documents: PacketDocument[];
}

export function isTerminalKycStatus(status: KycStatus): boolean {
  return status === 'APPROVED' || status === 'REJECTED';
}

export function decideSubmission(f: SubmissionFacts): SubmissionDecision {
  if (isTerminalKycStatus(f.kycStatus)) {
    return { kind: 'REFUSED', reason: `The customer's verification is already ${f.kycStatus}; it cannot be submitted again` };
  }
  if (f.regulated && f.customerType === 'BUSINESS') {
    const suffix = sandboxSuffix(f.registrationNumber);
    if (suffix === '002') return { kind: 'DECIDED', status: 'REJECTED' };
    if (suffix !== '001' && suffix !== '003') return { kind: 'DECIDED', status: 'APPROVED' };
    if (f.errors.length > 0) return { kind: 'RESOLVE_ERRORS', errors: f.errors };
    return { kind: 'LATER', status: suffix === '001' ? 'PENDING_MANUAL_REVIEW' : 'IN_PROGRESS', outcome: 'APPROVED' };
  }
  if (f.errors.length > 0) return { kind: 'RESOLVE_ERRORS', errors: f.errors };
  const suffix = sandboxSuffix(f.fullName);
  if (f.regulated) {
    if (suffix === '001') return { kind: 'LATER', status: 'PENDING_MANUAL_REVIEW', outcome: 'APPROVED' };
    if (suffix === '003') return { kind: 'RESOLVE_ERRORS', errors: poorQualityErrors(f.customerId, f.documents) };
  }
  if (f.customerType === 'INDIVIDUAL' && suffix === '002') return { kind: 'LATER', status: 'IN_PROGRESS', outcome: 'REJECTED' };
  return { kind: 'LATER', status: 'IN_PROGRESS', outcome: 'APPROVED' };
}

function poorQualityErrors(customerId: string, documents: PacketDocument[]): VerificationError[] {
  return documents
    .filter((d) => d.documentHolder === customerId && IDENTITY_DOCUMENTS.includes(d.documentType))
    .map((d) => ({
      resourceId: d.id,
      type: 'POOR_QUALITY_DOCUMENT' as const,
      acceptedDocumentTypes: [...IDENTITY_DOCUMENTS],
      reason: 'The identity document is not legible; upload a clearer image with PUT /documents/{documentId}',
    }));
}

/**
 * Whether a verification that asked for fixes (RESOLVE_ERRORS) is complete now and waits for its
 * resubmission (READY_FOR_VERIFICATION): the packet lacks nothing any more, and no error it was
 * sent back for is one only a resubmission judges again (a document's quality).
 */
export function readyForVerification(status: VerificationStatus, recordedErrors: VerificationError[], packetErrors: VerificationError[]): boolean {
  return status === 'RESOLVE_ERRORS' && packetErrors.length === 0 && recordedErrors.every((e) => e.type !== 'POOR_QUALITY_DOCUMENT');
}

/** The customer's KYC/KYB status once a submission is decided: unchanged while errors remain. */
export function customerStatusAfter(decision: SubmissionDecision, current: KycStatus): KycStatus {
  switch (decision.kind) {
    case 'DECIDED':
      return decision.status;
    case 'LATER':
      return 'PENDING';
    default:
      return current;
  }
}

/** The verification's status for a decision (REFUSED changes nothing and has none). */
export function verificationStatusOf(decision: Exclude<SubmissionDecision, { kind: 'REFUSED' }>): VerificationStatus {
  return decision.kind === 'RESOLVE_ERRORS' ? 'RESOLVE_ERRORS' : decision.status;
}

/** The webhook announcing a verification's new status. */
export function verificationEventType(status: VerificationStatus): string {
  return `VERIFICATION.${status}`;
}

/**
 * A beneficial owner's KYC status: UNVERIFIED until the business is APPROVED or REJECTED; then
 * (and for owners added afterwards) by the last three characters of personalInfo.lastName:
 * 001 PENDING, 002 REJECTED, anything else APPROVED.
 */
export function ownerKycStatus(businessStatus: KycStatus, lastName: string | null | undefined): KycStatus {
  if (!isTerminalKycStatus(businessStatus)) return 'UNVERIFIED';
  switch (sandboxSuffix(lastName)) {
    case '001':
      return 'PENDING';
    case '002':
      return 'REJECTED';
    default:
      return 'APPROVED';
  }
}

/** Whether the owners' shares, with one owner's new share, would add up to more than 100 %. */
export function ownershipExceeds100(otherOwnersPercentages: number[], proposed: number): boolean {
  return otherOwnersPercentages.reduce((a, b) => a + b, proposed) > 100;
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { VerificationError } from '../domain/verification-requirements';
import type { VerificationStatus } from '../domain/verification-sandbox';

/**
 * The KYC/KYB verification of one customer (one per customer; its id derives from the customer
 * id and is also the id of the `customerVerification` workflow that drives it).
 */
@Entity({ tableName: 'verifications' })
export class Verification {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) customerId!: string;
  @Property({ type: 'string' }) verificationStatus!: VerificationStatus;
  @Property({ type: 'json' }) errors!: VerificationError[];
  /** Submissions applied so far. */
  @Property({ type: 'integer' }) submissions!: number;
  /** The last applied submission's key: a retried activity recognises the one it already applied. */
  @Property({ type: 'string', nullable: true }) lastSubmissionKey?: string | null;
  /** The sandbox decision awaiting its timer while IN_PROGRESS or PENDING_MANUAL_REVIEW. */
  @Property({ type: 'string', nullable: true }) pendingOutcome?: 'APPROVED' | 'REJECTED' | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { ScaFactorType } from '../domain/factors';

export type ScaResetStatus = 'INITIATED' | 'PENDING_REVIEW' | 'LIVENESS_PASSED' | 'COMPLETED' | 'REJECTED' | 'EXPIRED';

/** A liveness-gated recovery of a lost factor (`POST /sca/factors/reset`). */
@Entity({ tableName: 'sca_factor_resets' })
export class ScaFactorReset {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) customerId!: string;
  @Property({ type: 'string' }) factor!: ScaFactorType;
  @Property({ type: 'string' }) status!: ScaResetStatus;
  @Property({ type: 'datetime' }) expiresAt!: Date;
  @Property({ type: 'datetime', nullable: true }) completedAt?: Date | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

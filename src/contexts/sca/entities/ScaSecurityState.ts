import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A customer's failed-login count and lockout (one row per customer, created at its first failure). */
@Entity({ tableName: 'sca_security_states' })
export class ScaSecurityState {
  @PrimaryKey({ type: 'string' }) customerId!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'integer' }) failedAttempts!: number;
  @Property({ type: 'boolean' }) suspended!: boolean;
  @Property({ type: 'datetime', nullable: true }) lockedUntil?: Date | null;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

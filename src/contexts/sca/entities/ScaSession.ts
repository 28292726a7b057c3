import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { ScaFactorType } from '../domain/factors';

/** A customer's SCA login session, opened by `POST /sca/login/complete`. */
@Entity({ tableName: 'sca_sessions' })
export class ScaSession {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) customerId!: string;
  @Property({ type: 'string' }) factor!: ScaFactorType;
  /** The end user's address the login came from (reference `endUserIpAddress`). */
  @Property({ type: 'string' }) endUserIpAddress!: string;
  @Property({ type: 'datetime' }) expiresAt!: Date;
  /** Set by RESET_PASSWORD_COMPLETED (every session of the customer). */
  @Property({ type: 'datetime', nullable: true }) revokedAt?: Date | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
}

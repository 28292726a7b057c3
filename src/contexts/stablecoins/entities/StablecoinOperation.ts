import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Environment } from '../../platforms';
import type { OperationDestination, OperationSource, OperationStatus, OperationType } from '../domain/operation-rules';

/** A mint or burn of a stablecoin. Its id is also its workflow's id. */
@Entity({ tableName: 'stablecoin_operations' })
export class StablecoinOperation {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) environment!: Environment;
  @Property({ type: 'string' }) stablecoinId!: string;
  @Property({ type: 'string' }) providerAccountLinkId!: string;
  @Property({ type: 'string' }) operationType!: OperationType;
  @Property({ type: 'string' }) status!: OperationStatus;
  /** The token's smallest unit, as a decimal string (an 18-decimal token outgrows bigint). */
  @Property({ type: 'string' }) amount!: string;
  /** The same value in the base currency's minor unit: what the ledger posts. */
  @Property({ type: 'bigint' }) fiatAmount!: bigint;
  @Property({ type: 'json' }) source!: OperationSource;
  @Property({ type: 'json' }) destination!: OperationDestination;
  @Property({ type: 'json', nullable: true }) fundingInstructions?: Record<string, string> | null;
  @Property({ type: 'json', nullable: true }) estimatedDelivery?: Record<string, string> | null;
  @Property({ type: 'datetime', nullable: true }) expiresAt?: Date | null;
  @Property({ type: 'string', nullable: true }) providerStatus?: string | null;
  @Property({ type: 'string', nullable: true }) providerReference?: string | null;
  @Property({ type: 'string', nullable: true }) failureReason?: string | null;
  @Property({ type: 'string', nullable: true }) description?: string | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Permission } from '../domain/permissions';

export type Environment = 'SANDBOX' | 'PRODUCTION';

/**
 * An API credential. The client secret itself is never stored, only its keyed hash
 * (`hmac-sha256$…`; tokens of earlier versions hold `scrypt$…` until their next good check).
 */
@Entity({ tableName: 'api_tokens' })
export class ApiToken {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) name!: string;
  @Property({ type: 'string' }) environment!: Environment;
  @Property({ type: 'json' }) permissions!: Permission[];
  @Property({ type: 'string' }) secretHash!: string;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

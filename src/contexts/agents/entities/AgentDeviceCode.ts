import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * A code that installs an agent: redeemed once for its bearer token, before `expiresAt`. Only its
 * keyed hash is stored; a newer code of the agent voids the unredeemed ones (`invalidatedAt`).
 */
@Entity({ tableName: 'agent_device_codes' })
export class AgentDeviceCode {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) agentId!: string;
  @Property({ type: 'string' }) codeHash!: string;
  @Property({ type: 'datetime' }) expiresAt!: Date;
  @Property({ type: 'datetime', nullable: true }) redeemedAt?: Date | null;
  @Property({ type: 'datetime', nullable: true }) invalidatedAt?: Date | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Environment } from '../../platforms';
import type { StoredAgentPolicy } from '../domain/agent-policy';

/** Software acting for one customer of a platform, within its policy. Deleted agents are gone (their tokens with them). */
@Entity({ tableName: 'agents' })
export class Agent {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  /** The environment of the token that created it: its bearer token acts in that one. */
  @Property({ type: 'string' }) environment!: Environment;
  @Property({ type: 'string' }) customerId!: string;
  @Property({ type: 'string' }) name!: string;
  @Property({ type: 'boolean' }) isPaused!: boolean;
  /** Set once a device code of it was redeemed (it holds an access token). */
  @Property({ type: 'boolean' }) isConnected!: boolean;
  @Property({ type: 'json' }) policy!: StoredAgentPolicy;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

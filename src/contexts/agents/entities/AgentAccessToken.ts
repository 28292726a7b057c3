import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** An agent's bearer token: only its keyed hash is stored; deleting the agent deletes it (revoked at once). */
@Entity({ tableName: 'agent_access_tokens' })
export class AgentAccessToken {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) agentId!: string;
  @Property({ type: 'string' }) tokenHash!: string;
  @Property({ type: 'datetime' }) createdAt!: Date;
}

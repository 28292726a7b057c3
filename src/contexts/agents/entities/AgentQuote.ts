import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A quote an agent created: the only quotes GET /agents/me/quotes/{id} shows it. */
@Entity({ tableName: 'agent_quotes' })
export class AgentQuote {
  @PrimaryKey({ type: 'string' }) quoteId!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) agentId!: string;
  @Property({ type: 'datetime' }) createdAt!: Date;
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { AgentActionType, AgentTransferDetails } from '../domain/agent-actions';

/** A quote an agent created: the only quotes GET /agents/me/quotes/{id} shows it, and what its execution is the agent's action of. */
@Entity({ tableName: 'agent_quotes' })
export class AgentQuote {
  @PrimaryKey({ type: 'string' }) quoteId!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) agentId!: string;
  /** EXECUTE_QUOTE for POST /agents/me/quotes; a transfer's quote is its TRANSFER_IN / TRANSFER_OUT. */
  @Property({ type: 'string' }) actionType!: AgentActionType;
  @Property({ type: 'json', nullable: true }) transferDetails?: AgentTransferDetails | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
}

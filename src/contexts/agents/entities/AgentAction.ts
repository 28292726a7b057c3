import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { AgentDecision } from '../domain/agent-approvals';
import type { AgentActionStatus, AgentActionType, AgentTransferDetails } from '../domain/agent-actions';

/**
 * Something an agent asked to do that moves money (execute a quote, a transfer), approved at once
 * or waiting for the platform. `spendAmount` is the amount counted against the agent's limits, in
 * `spendCurrency` (the policy's currency when it was submitted): AgentUsage is summed from these rows.
 */
@Entity({ tableName: 'agent_actions' })
export class AgentAction {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) agentId!: string;
  @Property({ type: 'string' }) customerId!: string;
  @Property({ type: 'string' }) type!: AgentActionType;
  @Property({ type: 'string' }) status!: AgentActionStatus;
  /** The policy sent it to the platform for a decision (GET /agents/approvals lists these). */
  @Property({ type: 'boolean' }) approvalRequired!: boolean;
  @Property({ type: 'string', nullable: true }) quoteId?: string | null;
  @Property({ type: 'string', nullable: true }) transactionId?: string | null;
  /** TRANSFER_IN / TRANSFER_OUT: the reference's AgentTransferDetails (amount as a decimal string). */
  @Property({ type: 'json', nullable: true }) transferDetails?: AgentTransferDetails | null;
  @Property({ type: 'bigint', nullable: true }) spendAmount?: bigint | null;
  @Property({ type: 'string', nullable: true }) spendCurrency?: string | null;
  @Property({ type: 'string', nullable: true }) rejectionReason?: string | null;
  /** The platform's decision, claimed before it is sent to the payment (an approval and a rejection cannot both go). */
  @Property({ type: 'string', nullable: true }) decision?: AgentDecision | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

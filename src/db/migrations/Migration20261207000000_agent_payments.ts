import { Migration } from '@mikro-orm/migrations';

export class Migration20261207000000_agent_payments extends Migration {
  override name = 'Migration20261207000000_agent_payments';

  override up(): void {
    // The agent that made a quote (and so its transaction): the reference's Transaction.agentId,
    // and what tells the agent-policy gate that an execution is an agent's (no lookup for others).
    this.addSql('alter table quotes add column agent_id text null');
    this.addSql('alter table transactions add column agent_id text null');
    // The gate that holds an execution (null when none): a hold does not always change the quote's
    // status (a payment waiting for its platform's approval stays PENDING), so the hold is named here.
    this.addSql('alter table quotes add column held_by text null');
    // One action per quote an agent executes: the gate that records it finds it again on a retry or a resumption.
    this.addSql('create unique index agent_actions_quote_idx on agent_actions(quote_id) where quote_id is not null');
  }
}

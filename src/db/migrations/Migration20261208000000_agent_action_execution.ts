import { Migration } from '@mikro-orm/migrations';

export class Migration20261208000000_agent_action_execution extends Migration {
  override name = 'Migration20261208000000_agent_action_execution';

  override up(): void {
    // What the agent asked for when it made the quote: a quote to execute, or one of its same-currency
    // transfers (executed at once). The policy gate records the action of that type, with the
    // transfer's details, when the quote is executed.
    this.addSql(
      `alter table agent_quotes add column action_type text not null default 'EXECUTE_QUOTE' check (action_type in ('EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'))`,
    );
    this.addSql('alter table agent_quotes add column transfer_details jsonb null');
    // The platform's decision on a pending action, claimed before it is sent to the payment's workflow.
    this.addSql(`alter table agent_actions add column decision text null check (decision in ('APPROVE', 'REJECT'))`);
  }
}

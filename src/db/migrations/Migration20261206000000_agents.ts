import { Migration } from '@mikro-orm/migrations';

export class Migration20261206000000_agents extends Migration {
  override name = 'Migration20261206000000_agents';

  override up(): void {
    this.addSql(`
      create table agents (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        environment text not null check (environment in ('SANDBOX', 'PRODUCTION')),
        customer_id text not null references customers(id) deferrable initially deferred,
        name text not null,
        is_paused boolean not null default false,
        is_connected boolean not null default false,
        policy jsonb not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql('create index agents_platform_created_idx on agents(platform_id, created_at, id)');
    this.addSql('create index agents_customer_idx on agents(customer_id)');
    // Codes and tokens go with their agent: deleting an agent revokes its token in the same statement.
    this.addSql(`
      create table agent_device_codes (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        agent_id text not null references agents(id) on delete cascade,
        code_hash text not null unique,
        expires_at timestamptz not null,
        redeemed_at timestamptz null,
        invalidated_at timestamptz null,
        created_at timestamptz not null
      )`);
    this.addSql('create index agent_device_codes_agent_idx on agent_device_codes(agent_id)');
    this.addSql(`
      create table agent_access_tokens (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        agent_id text not null references agents(id) on delete cascade,
        token_hash text not null unique,
        created_at timestamptz not null
      )`);
    this.addSql('create index agent_access_tokens_agent_idx on agent_access_tokens(agent_id)');
    // Actions outlive their agent (the platform's audit of what was approved); no foreign key to agents.
    this.addSql(`
      create table agent_actions (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        agent_id text not null,
        customer_id text not null,
        type text not null check (type in ('EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN')),
        status text not null check (status in ('PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED')),
        -- Set when the policy sent it to the platform for approval: GET /agents/approvals lists these.
        approval_required boolean not null default false,
        quote_id text null,
        transaction_id text null,
        transfer_details jsonb null,
        spend_amount bigint null,
        spend_currency text null,
        rejection_reason text null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql('create index agent_actions_platform_created_idx on agent_actions(platform_id, created_at, id)');
    this.addSql('create index agent_actions_agent_created_idx on agent_actions(agent_id, created_at, id)');
    this.addSql(`
      create table agent_quotes (
        quote_id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        agent_id text not null,
        created_at timestamptz not null
      )`);
  }
}

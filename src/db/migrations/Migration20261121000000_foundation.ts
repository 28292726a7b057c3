import { Migration } from '@mikro-orm/migrations';

export class Migration20261121000000_foundation extends Migration {
  override name = 'Migration20261121000000_foundation';

  override up(): void {
    this.addSql(`
      create table platforms (
        id text primary key,
        name text not null,
        region text not null,
        is_regulated_financial_institution boolean not null default false,
        embedded_wallets_supported boolean not null default false,
        counterparty_information_required boolean not null default false,
        webhook_endpoint text,
        uma_domain text,
        supported_currencies jsonb not null default '[]',
        embedded_wallet_config jsonb,
        fee_configs jsonb not null default '[]',
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`
      create table api_tokens (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        name text not null,
        environment text not null check (environment in ('SANDBOX', 'PRODUCTION')),
        permissions jsonb not null,
        secret_hash text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index api_tokens_platform_idx on api_tokens(platform_id)`);
    this.addSql(`
      create table customers (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        platform_customer_id text not null,
        customer_type text not null check (customer_type in ('INDIVIDUAL', 'BUSINESS')),
        uma_address text not null unique,
        kyc_status text not null,
        region_code text,
        currencies jsonb not null default '[]',
        email text,
        phone_number text,
        full_name text,
        birth_date text,
        nationality text,
        address jsonb,
        profile jsonb not null default '{}',
        is_deleted boolean not null default false,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    // Active customers only: a deleted customer frees its platformCustomerId.
    this.addSql(`create unique index customers_platform_customer_id_active on customers(platform_id, platform_customer_id) where not is_deleted`);
    this.addSql(`create index customers_platform_created_idx on customers(platform_id, created_at desc, id desc)`);
    this.addSql(`
      create table ledger_accounts (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        kind text not null,
        currency text not null,
        allow_negative boolean not null,
        balance bigint not null default 0,
        held bigint not null default 0,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        -- The last line of defence: no code path can drive a protected account negative.
        constraint ledger_accounts_no_overdraft check (allow_negative or balance >= 0),
        constraint ledger_accounts_held_non_negative check (held >= 0)
      )`);
    this.addSql(`
      create table internal_accounts (
        id text primary key references ledger_accounts(id) deferrable initially deferred,
        platform_id text not null references platforms(id) deferrable initially deferred,
        customer_id text references customers(id) deferrable initially deferred,
        currency text not null,
        type text not null,
        status text not null,
        funding_reference text not null unique,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index internal_accounts_platform_idx on internal_accounts(platform_id, created_at desc, id desc)`);
    this.addSql(`create index internal_accounts_customer_idx on internal_accounts(customer_id)`);
    this.addSql(`
      create table journal_entries (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        idempotency_key text not null unique,
        transaction_id text,
        description text not null,
        created_at timestamptz not null
      )`);
    this.addSql(`create index journal_entries_transaction_idx on journal_entries(transaction_id)`);
    this.addSql(`
      create table postings (
        id bigserial primary key,
        entry_id text not null references journal_entries(id) deferrable initially deferred,
        account_id text not null references ledger_accounts(id) deferrable initially deferred,
        currency text not null,
        amount bigint not null check (amount <> 0),
        created_at timestamptz not null
      )`);
    this.addSql(`create index postings_account_idx on postings(account_id)`);
    this.addSql(`create index postings_entry_idx on postings(entry_id)`);
    this.addSql(`
      create table transactions (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        customer_id text references customers(id) deferrable initially deferred,
        type text not null,
        direction text not null,
        status text not null,
        source jsonb not null,
        destination jsonb not null,
        received_amount bigint not null check (received_amount > 0),
        received_currency text not null,
        failure_reason text,
        description text,
        settled_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index transactions_platform_idx on transactions(platform_id, created_at desc, id desc)`);
    this.addSql(`
      create table webhook_events (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        environment text not null,
        type text not null,
        payload text not null,
        state text not null,
        attempts integer not null default 0,
        last_response_status integer,
        last_attempt_at timestamptz,
        created_at timestamptz not null
      )`);
    this.addSql(`create index webhook_events_platform_idx on webhook_events(platform_id, created_at desc)`);
    this.addSql(`
      create table idempotency_keys (
        platform_id text not null references platforms(id) deferrable initially deferred,
        key text not null,
        fingerprint text not null,
        state text not null,
        status_code integer,
        response_body text,
        created_at timestamptz not null,
        completed_at timestamptz,
        primary key (platform_id, key)
      )`);
    this.addSql(`
      create table signing_keys (
        environment text primary key,
        public_key_pem text not null,
        private_key_encrypted text not null,
        created_at timestamptz not null
      )`);
  }
}

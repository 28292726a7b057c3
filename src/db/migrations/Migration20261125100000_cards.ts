import { Migration } from '@mikro-orm/migrations';

export class Migration20261125100000_cards extends Migration {
  override name = 'Migration20261125100000_cards';

  override up(): void {
    // Card limits are the operator's settings (spec §8): no cap unless set, several cards per cardholder.
    this.addSql('alter table platforms add column max_live_cards integer, add column one_card_per_cardholder boolean not null default false');
    this.addSql(`
      create table cards (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        environment text not null check (environment in ('SANDBOX', 'PRODUCTION')),
        cardholder_id text not null,
        platform_card_id text not null,
        state text not null check (state in ('PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED')),
        state_reason text,
        brand text,
        form text not null,
        last4 text,
        exp_month integer,
        exp_year integer,
        funding_sources jsonb not null,
        max_spend_per_transaction bigint check (max_spend_per_transaction > 0),
        currency text not null,
        processor_ref text,
        issuer_ref text,
        -- The PAN and CVV only sealed (AES-256-GCM, master key); the PAN's keyed hash for lookups.
        sealed_secrets text,
        pan_hash text unique,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql('create index cards_platform_created on cards (platform_id, created_at, id)');
    this.addSql('create index cards_cardholder on cards (cardholder_id)');
    this.addSql(`
      create table card_transactions (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        card_id text not null references cards(id),
        customer_id text not null,
        account_id text not null,
        currency text not null,
        direction text not null check (direction in ('DEBIT', 'CREDIT')),
        status text not null check (status in ('AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'REFUNDED', 'EXCEPTION')),
        kind text not null,
        merchant jsonb not null,
        issuer_transaction_token text not null unique,
        authorized_amount bigint not null check (authorized_amount >= 0),
        held_amount bigint not null check (held_amount >= 0),
        settled_amount bigint not null check (settled_amount >= 0),
        refunded_amount bigint not null check (refunded_amount >= 0),
        settlement_count integer not null default 0,
        refund_count integer not null default 0,
        pull_count integer not null default 0,
        pull_total bigint not null default 0,
        event_count integer not null default 0,
        expires_at timestamptz,
        authorized_at timestamptz not null,
        last_event_at timestamptz not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql('create index card_transactions_platform_created on card_transactions (platform_id, created_at, id)');
    this.addSql('create index card_transactions_card on card_transactions (card_id)');
  }
}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261123100000_quotes extends Migration {
  override name = 'Migration20261123100000_quotes';

  override up(): void {
    // A locked offer: rate and fees are fixed until expires_at; executing it creates the payment
    // whose id it carries from the start.
    this.addSql(`
      create table quotes (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        environment text not null check (environment in ('SANDBOX', 'PRODUCTION')),
        customer_id text references customers(id) deferrable initially deferred,
        status text not null check (status in ('PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED')),
        source jsonb not null,
        destination jsonb not null,
        locked_side text not null check (locked_side in ('SENDING', 'RECEIVING')),
        locked_amount bigint not null check (locked_amount > 0),
        sending_currency text not null,
        receiving_currency text not null,
        total_sending_amount bigint not null check (total_sending_amount > 0),
        total_receiving_amount bigint not null check (total_receiving_amount > 0),
        fees_included bigint not null check (fees_included >= 0),
        platform_fees_included bigint not null check (platform_fees_included >= 0 and platform_fees_included <= fees_included),
        exchange_rate double precision not null check (exchange_rate > 0),
        rate_details jsonb not null,
        payment_rail text,
        description text check (length(description) <= 1024),
        remittance_information text check (length(remittance_information) <= 80),
        purpose_of_payment text,
        transaction_id text not null unique,
        expires_at timestamptz not null,
        executed_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check (total_sending_amount > fees_included)
      )`);
    this.addSql(`create index quotes_platform_idx on quotes(platform_id, created_at desc, id desc)`);
    // Outgoing payments carry what was sent, at which rate and for which fees, and their refund.
    this.addSql(`alter table transactions add column quote_id text`);
    this.addSql(`alter table transactions add column sent_amount bigint check (sent_amount > 0)`);
    this.addSql(`alter table transactions add column sent_currency text`);
    this.addSql(`alter table transactions add column fees bigint check (fees >= 0)`);
    this.addSql(`alter table transactions add column platform_fees bigint check (platform_fees >= 0)`);
    this.addSql(`alter table transactions add column exchange_rate double precision`);
    this.addSql(`alter table transactions add column rate_details jsonb`);
    this.addSql(`alter table transactions add column payment_rail text`);
    this.addSql(`alter table transactions add column refund jsonb`);
    this.addSql(`create unique index transactions_quote_idx on transactions(quote_id) where quote_id is not null`);
  }
}

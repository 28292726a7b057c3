import { Migration } from '@mikro-orm/migrations';

export class Migration20261121300000_contact_accounts extends Migration {
  override name = 'Migration20261121300000_contact_accounts';

  override up(): void {
    // One live code per customer and channel; a resend replaces the row. Only a keyed hash of
    // the code is kept, never the code.
    this.addSql(`
      create table contact_verification_codes (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        customer_id text not null references customers(id) deferrable initially deferred,
        channel text not null check (channel in ('email', 'phone')),
        destination text not null,
        code_hash text not null,
        attempts integer not null default 0 check (attempts >= 0),
        expires_at timestamptz not null,
        consumed_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        constraint contact_verification_codes_customer_channel unique (customer_id, channel)
      )`);
    // Wallet privacy: present (false until toggled) on embedded wallets only.
    this.addSql(`alter table internal_accounts add column private_enabled boolean`);
    this.addSql(`
      alter table internal_accounts add constraint internal_accounts_private_enabled_wallet_only
        check ((type = 'EMBEDDED_WALLET') = (private_enabled is not null))`);
    // A customer holds at most one account per type and currency, even under concurrent provisioning.
    this.addSql(`create unique index internal_accounts_customer_type_currency on internal_accounts(customer_id, type, currency) where customer_id is not null`);
  }
}

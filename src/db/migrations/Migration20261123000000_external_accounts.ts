import { Migration } from '@mikro-orm/migrations';

export class Migration20261123000000_external_accounts extends Migration {
  override name = 'Migration20261123000000_external_accounts';

  override up(): void {
    this.addSql(`
      create table external_accounts (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        environment text not null check (environment in ('SANDBOX', 'PRODUCTION')),
        customer_id text references customers(id) deferrable initially deferred,
        currency text not null,
        account_type text not null,
        account_info jsonb not null,
        duplicate_key text not null,
        status text not null check (status in ('PENDING', 'ACTIVE', 'PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED', 'INACTIVE', 'UNDER_REVIEW')),
        ownership_type text check (ownership_type in ('FIRST_PARTY', 'THIRD_PARTY')),
        platform_account_id text check (length(platform_account_id) <= 255),
        default_uma_deposit_account boolean not null default false,
        beneficiary_verification_status text check (beneficiary_verification_status in ('MATCHED', 'PARTIAL_MATCH', 'NOT_MATCHED', 'UNSUPPORTED', 'CHECKED_BY_RECEIVING_FI', 'PENDING')),
        beneficiary_verified_name text,
        bank_validation text check (bank_validation in ('PENDING', 'PASSED', 'FAILED')),
        bank_validation_due_at timestamptz,
        ownership_challenge jsonb,
        deleted_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        -- Only a customer's account can be where its UMA deposits land.
        constraint external_accounts_default_needs_customer check (not default_uma_deposit_account or customer_id is not null)
      )`);
    // One live registration of an account per owner (the platform itself when customer_id is null);
    // the index, not a prior read, decides between two simultaneous registrations.
    this.addSql(
      `create unique index external_accounts_live_duplicate on external_accounts(platform_id, coalesce(customer_id, ''), duplicate_key) where deleted_at is null`,
    );
    // At most one default UMA deposit account per customer.
    this.addSql(`create unique index external_accounts_default_uma on external_accounts(customer_id) where default_uma_deposit_account and deleted_at is null`);
    this.addSql(`create index external_accounts_platform_list on external_accounts(platform_id, created_at desc, id desc) where deleted_at is null`);
    this.addSql(`create index external_accounts_customer on external_accounts(customer_id, created_at desc) where deleted_at is null`);
  }
}

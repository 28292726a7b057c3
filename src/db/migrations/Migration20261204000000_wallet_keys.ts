import { Migration } from '@mikro-orm/migrations';

export class Migration20261204000000_wallet_keys extends Migration {
  override name = 'Migration20261204000000_wallet_keys';

  override up(): void {
    // Card signing keys the service holds for embedded wallets (POST /auth/delegated-keys). At most
    // one ACTIVE key per card funding source: the partial index makes a concurrent third leg lose.
    this.addSql(`
      create table delegated_keys (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        card_id text not null references cards(id) deferrable initially deferred,
        funding_source_id text not null,
        account_id text not null references internal_accounts(id) deferrable initially deferred,
        public_key text not null,
        sealed_private_key text not null,
        nickname text not null,
        status text not null check (status in ('PENDING', 'ACTIVE', 'REVOKED')),
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create unique index delegated_keys_one_active on delegated_keys (card_id, funding_source_id) where status = 'ACTIVE'`);
    this.addSql('create index delegated_keys_platform_account on delegated_keys (platform_id, account_id)');
    this.addSql('create index delegated_keys_platform_funding_source on delegated_keys (platform_id, funding_source_id)');
    // An embedded wallet's seed, encrypted under the master key; created on its first export.
    this.addSql(`
      create table wallet_secrets (
        account_id text primary key references internal_accounts(id) deferrable initially deferred,
        platform_id text not null references platforms(id) deferrable initially deferred,
        sealed_seed text not null,
        created_at timestamptz not null
      )`);
  }

  override down(): void {
    this.addSql('drop table if exists wallet_secrets');
    this.addSql('drop table if exists delegated_keys');
  }
}

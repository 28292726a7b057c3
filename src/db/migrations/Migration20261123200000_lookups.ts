import { Migration } from '@mikro-orm/migrations';

export class Migration20261123200000_lookups extends Migration {
  override name = 'Migration20261123200000_lookups';

  override up(): void {
    // Receiver lookups: a quote naming a lookupId is checked against its row (platform, target, expiry).
    this.addSql(`
      create table lookups (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        kind text not null check (kind in ('EXTERNAL_ACCOUNT', 'UMA_ADDRESS')),
        target text not null,
        receiving_currencies jsonb not null check (jsonb_typeof(receiving_currencies) = 'array' and jsonb_array_length(receiving_currencies) > 0),
        required_payer_data_fields jsonb not null check (jsonb_typeof(required_payer_data_fields) = 'array'),
        created_at timestamptz not null,
        expires_at timestamptz not null,
        check (expires_at > created_at)
      )`);
  }
}

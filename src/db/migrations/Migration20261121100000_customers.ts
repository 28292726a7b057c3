import { Migration } from '@mikro-orm/migrations';

export class Migration20261121100000_customers extends Migration {
  override name = 'Migration20261121100000_customers';

  override up(): void {
    // UMA addresses are unique regardless of case ($Alice@x and $alice@x route to the same user).
    this.addSql(`alter table customers drop constraint customers_uma_address_key`);
    this.addSql(`create unique index customers_uma_address_lower_key on customers (lower(uma_address))`);
    this.addSql(
      `alter table customers add constraint customers_kyc_status_check check (kyc_status in ('UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'))`,
    );
    // GET /customers filters: updatedAfter/Before and currency (currencies @> '["USD"]').
    this.addSql(`create index customers_platform_updated_idx on customers(platform_id, updated_at)`);
    this.addSql(`create index customers_currencies_idx on customers using gin (currencies jsonb_path_ops)`);
  }
}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261130010000_drop_leases extends Migration {
  override name = 'Migration20261130010000_drop_leases';

  override up(): void {
    // Updates to a payment's workflow no longer take turns through a lease: its update ids answer
    // repeats, and its first webhook attempts skip what a lost workflow task delivered already.
    this.addSql('drop table if exists leases');
  }

  override down(): void {
    this.addSql('create table if not exists leases (name text primary key, holder text not null, expires_at timestamptz not null)');
  }
}

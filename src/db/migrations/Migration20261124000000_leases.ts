import { Migration } from '@mikro-orm/migrations';

export class Migration20261124000000_leases extends Migration {
  override name = 'Migration20261124000000_leases';

  override up(): void {
    // Short leases (src/db/leases.ts): one holder at a time per name across API processes, e.g.
    // one update in flight per payment workflow. A row lives while its holder works; a holder
    // that died is taken over once expires_at has passed.
    this.addSql(`
      create table leases (
        name text primary key,
        holder text not null,
        expires_at timestamptz not null
      )`);
  }
}

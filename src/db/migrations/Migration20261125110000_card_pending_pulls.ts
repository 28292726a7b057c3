import { Migration } from '@mikro-orm/migrations';

export class Migration20261125110000_card_pending_pulls extends Migration {
  override name = 'Migration20261125110000_card_pending_pulls';

  override up(): void {
    // Pulls from the funding source whose confirmation has not come yet (the reference's
    // pullSummary.pendingCount); the sandbox's delayed-pull descriptors exercise it.
    this.addSql('alter table card_transactions add column pending_pulls integer not null default 0');
  }
}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261128050000_card_pulls_from_ledger extends Migration {
  override name = 'Migration20261128050000_card_pulls_from_ledger';

  override up(): void {
    // pullSummary is read from the ledger's postings out of the funding account (cardPulls):
    // these counters missed advices that grew a hold and could drift from what moved.
    this.addSql('alter table card_transactions drop column pull_count, drop column pull_total');
  }
}

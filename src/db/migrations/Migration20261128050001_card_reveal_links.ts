import { Migration } from '@mikro-orm/migrations';

export class Migration20261128050001_card_reveal_links extends Migration {
  override name = 'Migration20261128050001_card_reveal_links';

  override up(): void {
    // The one reveal link of a card that may still be used: spent on use, replaced by a newer
    // link, voided by a state change (so a link works once, and only while the card is ACTIVE).
    this.addSql('alter table cards add column reveal_link_id text null');
  }
}

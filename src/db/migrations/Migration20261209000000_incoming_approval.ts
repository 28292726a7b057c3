import { Migration } from '@mikro-orm/migrations';

export class Migration20261209000000_incoming_approval extends Migration {
  override name = 'Migration20261209000000_incoming_approval';

  override up(): void {
    // What the platform said when it decided an incoming UMA payment (its approval webhook's answer,
    // or POST /transactions/{id}/approve and /reject): the receiver's information it gave with an
    // approval, and the reason it gave with a rejection. Kept for support and the platform's own
    // purposes; the reference shows neither on the transaction.
    this.addSql('alter table transactions add column receiver_customer_info jsonb null');
    this.addSql('alter table transactions add column rejection_reason text null');
  }
}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261123110000_transaction_actions extends Migration {
  override name = 'Migration20261123110000_transaction_actions';

  override up(): void {
    // When the platform confirmed it delivered the receipt to its customer (POST …/confirm).
    this.addSql(`alter table transactions add column receipt_delivery_confirmed_at timestamptz`);
  }
}

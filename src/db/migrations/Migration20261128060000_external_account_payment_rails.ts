import { Migration } from '@mikro-orm/migrations';

export class Migration20261128060000_external_account_payment_rails extends Migration {
  override name = 'Migration20261128060000_external_account_payment_rails';

  override up(): void {
    // The rails the platform chose for an account at registration (accountInfo.paymentRails);
    // null: every rail the account's coordinates reach.
    this.addSql('alter table external_accounts add column payment_rails jsonb');
  }
}

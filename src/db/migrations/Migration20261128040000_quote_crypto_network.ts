import { Migration } from '@mikro-orm/migrations';

export class Migration20261128040000_quote_crypto_network extends Migration {
  override name = 'Migration20261128040000_quote_crypto_network';

  override up(): void {
    // The chain a real-time-funded crypto quote is deposited on; null for fiat, account sources
    // and quotes made before it was recorded (their instructions use the currency's usual chain).
    this.addSql('alter table quotes add column crypto_network text');
  }
}

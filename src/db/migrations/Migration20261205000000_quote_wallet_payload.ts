import { Migration } from '@mikro-orm/migrations';

export class Migration20261205000000_quote_wallet_payload extends Migration {
  override name = 'Migration20261205000000_quote_wallet_payload';

  override up(): void {
    // An EMBEDDED_WALLET source's payloadToSign, fixed when the quote is made: the wallet's owner
    // signs these exact bytes to pay it. Null for every other source.
    this.addSql('alter table quotes add column wallet_payload_to_sign text');
  }
}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261124010000_quote_execution_key extends Migration {
  override name = 'Migration20261124010000_quote_execution_key';

  override up(): void {
    // The Idempotency-Key of the execute request that is executing (or executed) the quote: a
    // retry of that request after its answer was lost is answered as the original, any other 409.
    this.addSql('alter table quotes add column execution_key text');
  }
}

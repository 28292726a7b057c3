import { Migration } from '@mikro-orm/migrations';

export class Migration20261121060000_customer_profile_columns extends Migration {
  override name = 'Migration20261121060000_customer_profile_columns';

  override up(): void {
    // Tax identification number, AES-GCM sealed with the master key; write-only in the API.
    this.addSql(`alter table customers add column identifier_encrypted text`);
    // Contact verification state, present only where the customer's provider requires it.
    this.addSql(`alter table customers add column contact_verification jsonb`);
  }
}

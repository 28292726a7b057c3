import { Migration } from '@mikro-orm/migrations';

export class Migration20261121050000_onboarding_base extends Migration {
  override name = 'Migration20261121050000_onboarding_base';

  override up(): void {
    this.addSql(`alter table customers add column agreement_consents jsonb not null default '[]'`);
  }
}

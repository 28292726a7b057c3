import { Migration } from '@mikro-orm/migrations';

export class Migration20261203000000_sca_payments extends Migration {
  override name = 'Migration20261203000000_sca_payments';

  override up(): void {
    // The factor of a quote's SCA challenges, and the challenge it carries while PENDING_AUTHORIZATION.
    this.addSql('alter table quotes add column sca_factor text');
    this.addSql('alter table quotes add column sca_challenge jsonb');
    // A trusted beneficiary: payments to it skip the per-transaction SCA challenge; it cannot be deleted while trusted.
    this.addSql('alter table external_accounts add column trusted boolean not null default false');
  }
}

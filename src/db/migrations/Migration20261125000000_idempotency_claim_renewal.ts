import { Migration } from '@mikro-orm/migrations';

export class Migration20261125000000_idempotency_claim_renewal extends Migration {
  override name = 'Migration20261125000000_idempotency_claim_renewal';

  override up(): void {
    // The last sign of life of the request holding an IN_PROGRESS claim. The request renews it
    // while it works, so a claim whose request died can be taken over after seconds, not minutes.
    this.addSql('alter table idempotency_keys add column renewed_at timestamptz not null default now()');
  }
}

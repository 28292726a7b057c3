import { Migration } from '@mikro-orm/migrations';

export class Migration20261126000000_invitations extends Migration {
  override name = 'Migration20261126000000_invitations';

  override up(): void {
    // UMA invitations: one row per code; its lifecycle (claim, cancel, expiry) runs in a workflow
    // whose id is the code. amount_to_send is display-only (the inviter's platform sends it).
    this.addSql(`
      create table invitations (
        code text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        environment text not null check (environment in ('SANDBOX', 'PRODUCTION')),
        inviter_customer_id text not null,
        inviter_uma text not null,
        invitee_uma text,
        first_name text,
        amount_to_send bigint check (amount_to_send > 0),
        currency text,
        status text not null check (status in ('PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED')),
        url text not null,
        expires_at timestamptz,
        claimed_at timestamptz,
        cancelled_at timestamptz,
        -- The workflow step that claimed or cancelled it: a retried activity finds its own work done.
        settled_by text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check ((amount_to_send is null) = (currency is null))
      )`);
    this.addSql('create index invitations_platform_created on invitations (platform_id, created_at)');
  }
}

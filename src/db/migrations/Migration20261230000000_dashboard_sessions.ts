import { Migration } from '@mikro-orm/migrations';

export class Migration20261230000000_dashboard_sessions extends Migration {
  override name = 'Migration20261230000000_dashboard_sessions';

  override up(): void {
    // A dashboard sign-in: only the sha256 of its cookie value is kept (never the client secret).
    // Deleting the API token deletes its sessions, so a revoked token's sessions end at once.
    this.addSql(`
      create table dashboard_sessions (
        id text primary key,
        cookie_hash text not null unique,
        token_id text not null references api_tokens(id) on delete cascade,
        platform_id text not null references platforms(id),
        csrf_token text not null,
        created_at timestamptz not null,
        last_seen_at timestamptz not null,
        expires_at timestamptz not null,
        ended_at timestamptz null
      )`);
    this.addSql('create index dashboard_sessions_token_idx on dashboard_sessions(token_id)');
    // Every write made through a session: who, where, what answer; never a body or a secret.
    this.addSql(`
      create table dashboard_audit (
        id text primary key,
        at timestamptz not null,
        session_id text not null,
        token_id text not null,
        platform_id text not null,
        method text not null,
        path text not null,
        status integer not null
      )`);
    this.addSql('create index dashboard_audit_platform_idx on dashboard_audit(platform_id, at desc)');
  }
}

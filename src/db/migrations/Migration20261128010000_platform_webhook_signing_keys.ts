import { Migration } from '@mikro-orm/migrations';

export class Migration20261128010000_platform_webhook_signing_keys extends Migration {
  override name = 'Migration20261128010000_platform_webhook_signing_keys';

  override up(): void {
    // Webhooks are signed per platform (and environment): one environment-wide key let a platform's
    // deliveries verify at another platform's receiver. Generation 1 is created with the platform,
    // or on first use for platforms created before this migration.
    this.addSql(`
      create table webhook_signing_keys (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        environment text not null check (environment in ('SANDBOX', 'PRODUCTION')),
        generation integer not null check (generation > 0),
        public_key_pem text not null,
        private_key_encrypted text not null,
        created_at timestamptz not null,
        expires_at timestamptz,
        unique (platform_id, environment, generation)
      )`);
    // The environment-wide keys must not sign for anyone any more: receivers fetch their platform's key.
    this.addSql('drop table signing_keys');
  }
}

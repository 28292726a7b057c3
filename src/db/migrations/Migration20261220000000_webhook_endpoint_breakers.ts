import { Migration } from '@mikro-orm/migrations';

export class Migration20261220000000_webhook_endpoint_breakers extends Migration {
  override name = 'Migration20261220000000_webhook_endpoint_breakers';

  override up(): void {
    // The circuit breaker of each webhook endpoint (a platform and its URL), shared by every worker:
    // no row is a closed breaker with no failures. `version` makes each write a compare-and-set. Keyed
    // by the URL's md5, since a URL of 2,048 characters may be longer than an index entry may be.
    this.addSql(`
      create table webhook_endpoint_breakers (
        platform_id text not null references platforms(id) deferrable initially deferred,
        endpoint_key text not null,
        endpoint text not null,
        failures integer not null,
        paused_until timestamptz null,
        pause_seconds integer not null,
        version integer not null,
        updated_at timestamptz not null,
        primary key (platform_id, endpoint_key)
      )`);
    // An event held back by its endpoint's breaker has no attempt yet, but its delivery is under way: not stranded.
    this.addSql('alter table webhook_events add column held_back_at timestamptz null');
  }
}

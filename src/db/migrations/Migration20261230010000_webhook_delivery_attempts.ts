import { Migration } from '@mikro-orm/migrations';

export class Migration20261230010000_webhook_delivery_attempts extends Migration {
  override name = 'Migration20261230010000_webhook_delivery_attempts';

  override up(): void {
    // One row per HTTP attempt of a webhook event, written with the event's counters.
    this.addSql(`
      create table webhook_delivery_attempts (
        id text primary key,
        event_id text not null references webhook_events(id) on delete cascade,
        attempted_at timestamptz not null,
        response_status integer null,
        duration_ms integer not null,
        error text null,
        outcome text not null
      )`);
    this.addSql('create index webhook_delivery_attempts_event_idx on webhook_delivery_attempts(event_id, attempted_at)');
    // The dashboard's metrics and event list read by state within a platform.
    this.addSql('create index webhook_events_platform_state_idx on webhook_events(platform_id, environment, state)');
  }
}

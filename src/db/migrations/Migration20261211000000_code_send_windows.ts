import { Migration } from '@mikro-orm/migrations';

export class Migration20261211000000_code_send_windows extends Migration {
  override name = 'Migration20261211000000_code_send_windows';

  override up(): void {
    // The times an OTP credential's codes were sent, inside the send window (older ones are dropped on the next send).
    this.addSql('alter table auth_credentials add column challenge_sends jsonb null');
    // SMS codes a customer asked for (SCA login starts and resends), counted per customer in the send window.
    this.addSql(`
      create table sca_code_sends (
        id text primary key,
        platform_id text not null references platforms(id) deferrable initially deferred,
        customer_id text not null,
        sent_at timestamptz not null
      )`);
    this.addSql('create index sca_code_sends_customer_idx on sca_code_sends(customer_id, sent_at)');
  }
}

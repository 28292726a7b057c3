import { Migration } from '@mikro-orm/migrations';

export class Migration20261128030000_uma_domain_ownership extends Migration {
  override name = 'Migration20261128030000_uma_domain_ownership';

  override up(): void {
    // A UMA domain belongs to one platform. Where several hold one already, the platform created
    // first keeps it and the others lose it (their invitations need a new domain); domains under
    // the service's default root (sandbox.uma.local) are the service's, so nobody keeps those.
    // Customers keep the addresses they have: the domain rule applies to new and changed ones.
    this.addSql(`
      update platforms p set uma_domain = null, updated_at = now()
      where p.uma_domain is not null and (
        lower(p.uma_domain) = 'sandbox.uma.local' or lower(p.uma_domain) like '%.sandbox.uma.local'
        or exists (select 1 from platforms q where lower(q.uma_domain) = lower(p.uma_domain) and (q.created_at, q.id) < (p.created_at, p.id))
      )`);
    this.addSql(`create unique index platforms_uma_domain_lower_key on platforms (lower(uma_domain))`);
    // Addresses are unique within a platform (whose domain is its own), so that a refusal can
    // only ever be about the caller's own customers, also where older data holds an address on
    // another platform's domain.
    this.addSql(`drop index customers_uma_address_lower_key`);
    this.addSql(`create unique index customers_platform_uma_address_lower_key on customers (platform_id, lower(uma_address))`);
  }
}

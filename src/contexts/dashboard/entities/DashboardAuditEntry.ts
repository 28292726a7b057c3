import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A write made through a dashboard session: who made it and what it answered; never a body or a secret. */
@Entity({ tableName: 'dashboard_audit' })
export class DashboardAuditEntry {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'datetime' }) at!: Date;
  @Property({ type: 'string' }) sessionId!: string;
  @Property({ type: 'string' }) tokenId!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) method!: string;
  /** The route's path template (`/customers/:customerId`), never the URL with its ids and query. */
  @Property({ type: 'string' }) path!: string;
  @Property({ type: 'integer' }) status!: number;
}

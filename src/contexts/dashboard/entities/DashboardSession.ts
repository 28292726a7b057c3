import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * A dashboard sign-in with an API token. The browser holds a random cookie value; only its sha256
 * is kept here, never the token's client secret. Deleting the token deletes its sessions.
 */
@Entity({ tableName: 'dashboard_sessions' })
export class DashboardSession {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) cookieHash!: string;
  @Property({ type: 'string' }) tokenId!: string;
  @Property({ type: 'string' }) platformId!: string;
  /** Sent back in X-CSRF-Token on every write: a cross-site page can make the browser send the cookie, never read this. */
  @Property({ type: 'string' }) csrfToken!: string;
  @Property({ type: 'datetime' }) createdAt!: Date;
  /** The last request made with it: the idle timeout counts from here. */
  @Property({ type: 'datetime' }) lastSeenAt!: Date;
  /** The absolute timeout: createdAt plus the longest a session may last. */
  @Property({ type: 'datetime' }) expiresAt!: Date;
  /** Signed out (or timed out, noticed on use). */
  @Property({ type: 'datetime', nullable: true }) endedAt?: Date | null;
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * An authenticated device of a wallet's owner (`Session:<uuid>`): the holder of the private half
 * of `publicKey` signs the wallet's requests until `expiresAt` (about 15 minutes) or revocation.
 */
@Entity({ tableName: 'auth_sessions' })
export class AuthSession {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) accountId!: string;
  /** The credential whose verification opened it. */
  @Property({ type: 'string' }) credentialId!: string;
  /** The session's P-256 public key, compressed SEC1 hex (66 characters, lowercase). */
  @Property({ type: 'string' }) publicKey!: string;
  @Property({ type: 'datetime' }) expiresAt!: Date;
  @Property({ type: 'datetime', nullable: true }) revokedAt?: Date | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

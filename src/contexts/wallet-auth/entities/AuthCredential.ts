import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { AuthMethodType } from '../domain/auth-methods';

/**
 * A way the owner of an embedded wallet proves who they are (`AuthMethod:<uuid>`). Verifying it
 * opens an AuthSession whose key signs the wallet's requests. Revoked credentials stay as rows
 * (revokedAt set) so that their sessions' history keeps its subject.
 */
@Entity({ tableName: 'auth_credentials' })
export class AuthCredential {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  /** The EMBEDDED_WALLET internal account the credential unlocks. */
  @Property({ type: 'string' }) accountId!: string;
  @Property({ type: 'string' }) type!: AuthMethodType;
  /** Email, E.164 phone, the OIDC email claim or the passkey's chosen name. */
  @Property({ type: 'string' }) nickname!: string;
  /** EMAIL_OTP: where codes go. */
  @Property({ type: 'string', nullable: true }) email?: string | null;
  /** SMS_OTP: where codes go (E.164). */
  @Property({ type: 'string', nullable: true }) phoneNumber?: string | null;
  /** PASSKEY: the WebAuthn credential id (base64url), its COSE public key (base64url) and signature counter. */
  @Property({ type: 'string', nullable: true }) passkeyCredentialId?: string | null;
  @Property({ type: 'text', nullable: true }) passkeyPublicKey?: string | null;
  @Property({ type: 'bigint', nullable: true }) passkeyCounter?: bigint | null;
  /** OAUTH: the stored identity (iss + aud + sub). */
  @Property({ type: 'string', nullable: true }) oauthIssuer?: string | null;
  @Property({ type: 'string', nullable: true }) oauthAudience?: string | null;
  @Property({ type: 'string', nullable: true }) oauthSubject?: string | null;
  /**
   * OTP: the outstanding challenge, sealed with the master key (the HPKE recipient's private key
   * and the code's keyed hash): never stored or logged in the clear.
   */
  @Property({ type: 'text', nullable: true }) challengeSealed?: string | null;
  @Property({ type: 'datetime', nullable: true }) challengeExpiresAt?: Date | null;
  /** When this credential's codes were sent, inside OTP_SEND_WINDOW (ISO times, oldest first). */
  @Property({ type: 'json', nullable: true }) challengeSends?: string[] | null;
  /** Wrong codes against the outstanding challenge; the fifth burns it. */
  @Property({ type: 'integer' }) challengeAttempts: number = 0;
  /** The wallet's credential set when the challenge was issued (see credentialSetFingerprint). */
  @Property({ type: 'string', nullable: true }) challengeCredentialSet?: string | null;
  @Property({ type: 'datetime', nullable: true }) revokedAt?: Date | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

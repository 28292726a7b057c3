import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { EnrollableFactor, ScaFactorStatus } from '../domain/factors';

/** A customer's enrolled (or enrolling) TOTP or passkey factor; SMS_OTP is implicit and has no row. */
@Entity({ tableName: 'sca_factors' })
export class ScaFactor {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) customerId!: string;
  @Property({ type: 'string' }) type!: EnrollableFactor;
  @Property({ type: 'string' }) status!: ScaFactorStatus;
  /** PASSKEY: the WebAuthn credential id (base64url), unique within the platform. */
  @Property({ type: 'string', nullable: true }) credentialId?: string | null;
  @Property({ type: 'string', nullable: true }) name?: string | null;
  /** TOTP: the shared secret, sealed with the master key (AES-256-GCM); never stored in clear. */
  @Property({ type: 'text', nullable: true }) sealedTotpSecret?: string | null;
  /** TOTP: the last time step a code was accepted for; a code of that step or earlier is a replay. */
  @Property({ type: 'integer', nullable: true }) totpLastUsedStep?: number | null;
  /** TOTP: keyed hashes of the one-time recovery codes (shown once at confirmation). */
  @Property({ type: 'json', nullable: true }) recoveryCodeHashes?: string[] | null;
  /** PASSKEY: the COSE public key (base64url). */
  @Property({ type: 'text', nullable: true }) passkeyPublicKey?: string | null;
  /** PASSKEY: the authenticator's signature counter; an assertion must exceed it (cloned-key check). */
  @Property({ type: 'bigint', nullable: true }) passkeyCounter?: bigint | null;
  @Property({ type: 'json', nullable: true }) passkeyTransports?: string[] | null;
  @Property({ type: 'datetime', nullable: true }) activatedAt?: Date | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

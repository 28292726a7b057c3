import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { ScaChallengePurpose, ScaFactorType } from '../domain/factors';

/**
 * One SCA challenge: what a proof must answer. SMS_OTP: the keyed hash of the code sent; PASSKEY:
 * the WebAuthn challenge. `binding` ties it to what it authorizes (dynamic linking: a digest of
 * amount and payee), so a proof for one payment never authorizes another. Single-use.
 */
@Entity({ tableName: 'sca_challenges' })
export class ScaChallenge {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) customerId!: string;
  @Property({ type: 'string' }) purpose!: ScaChallengePurpose;
  @Property({ type: 'string' }) factor!: ScaFactorType;
  @Property({ type: 'text', nullable: true }) binding?: string | null;
  /** SMS_OTP: `hashScaCode` of the code; the code itself is never stored. */
  @Property({ type: 'string', nullable: true }) codeHash?: string | null;
  /** SMS_OTP: the phone number the code went to; a code is valid for that number only. */
  @Property({ type: 'string', nullable: true }) destination?: string | null;
  /** PASSKEY: the WebAuthn challenge (base64url) the assertion or attestation must sign. */
  @Property({ type: 'string', nullable: true }) webauthnChallenge?: string | null;
  /** Wrong proofs so far; at MAX_CHALLENGE_ATTEMPTS the challenge is burned. */
  @Property({ type: 'integer' }) attempts!: number;
  @Property({ type: 'datetime' }) expiresAt!: Date;
  /** Set when a proof satisfied it; never accepted again. */
  @Property({ type: 'datetime', nullable: true }) consumedAt?: Date | null;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { CustomerType, KycStatus } from '../domain/customer-status';
import type { AgreementConsent } from '../domain/onboarding';

export type { CustomerType, KycStatus };
export type ContactVerificationStatus = 'PENDING' | 'VERIFIED';
export interface ContactVerificationState {
  email?: ContactVerificationStatus;
  phone?: ContactVerificationStatus;
}

@Entity({ tableName: 'customers' })
export class Customer {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) platformCustomerId!: string;
  @Property({ type: 'string' }) customerType!: CustomerType;
  @Property({ type: 'string' }) umaAddress!: string;
  @Property({ type: 'string' }) kycStatus!: KycStatus;
  @Property({ type: 'string', nullable: true }) regionCode?: string | null;
  @Property({ type: 'json' }) currencies!: string[];
  @Property({ type: 'string', nullable: true }) email?: string | null;
  @Property({ type: 'string', nullable: true }) phoneNumber?: string | null;
  @Property({ type: 'string', nullable: true }) fullName?: string | null;
  @Property({ type: 'string', nullable: true }) birthDate?: string | null;
  @Property({ type: 'string', nullable: true }) nationality?: string | null;
  @Property({ type: 'json', nullable: true }) address?: Record<string, unknown> | null;
  /** Sealed tax identification number (`encrypt` with the master key); never returned. */
  @Property({ type: 'text', nullable: true }) identifierEncrypted?: string | null;
  /** `{ email?, phone? }` each PENDING or VERIFIED; null where the provider does not require it. */
  @Property({ type: 'json', nullable: true }) contactVerification?: ContactVerificationState | null;
  /**
   * Remaining profile attributes as validated by the API schema: individual EDD fields, idType,
   * countryOfIssuance; for businesses `businessInfo`.
   */
  @Property({ type: 'json' }) profile!: Record<string, unknown>;
  @Property({ type: 'json' }) agreementConsents!: AgreementConsent[];
  @Property({ type: 'boolean' }) isDeleted!: boolean;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

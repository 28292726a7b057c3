import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { KycStatus } from './Customer';

/** Personal details of an owner as stored: everything but the identifier, which is sealed apart. */
export interface OwnerPersonalInfo {
  firstName: string;
  middleName?: string;
  lastName: string;
  birthDate: string;
  nationality: string;
  email?: string;
  phoneNumber?: string;
  address: { line1: string; line2?: string; city?: string; state?: string; postalCode: string; country: string };
  idType: string;
  countryOfIssuance?: string;
}

/** A beneficial owner, director, officer or control person of a business customer. */
@Entity({ tableName: 'beneficial_owners' })
export class BeneficialOwner {
  @PrimaryKey({ type: 'string' }) id!: string;
  @Property({ type: 'string' }) platformId!: string;
  @Property({ type: 'string' }) customerId!: string;
  @Property({ type: 'json' }) roles!: string[];
  @Property({ type: 'integer' }) ownershipPercentage!: number;
  @Property({ type: 'json' }) personalInfo!: OwnerPersonalInfo;
  /** Sealed identification number (`encrypt` with the master key); write-only in the API. */
  @Property({ type: 'text', nullable: true }) identifierEncrypted?: string | null;
  @Property({ type: 'string' }) kycStatus!: KycStatus;
  @Property({ type: 'datetime' }) createdAt!: Date;
  @Property({ type: 'datetime' }) updatedAt!: Date;
}

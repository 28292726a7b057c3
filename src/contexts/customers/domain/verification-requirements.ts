import { isEeaCountry } from '../../../domain/countries';
import { IDENTITY_DOCUMENTS, LEGAL_PRESENCE_DOCUMENTS, OWNERSHIP_STRUCTURE_DOCUMENTS, PROOF_OF_ADDRESS_DOCUMENTS, type DocumentType } from './documents';

/**
 * What a KYC/KYB packet must contain before a verification can proceed, and the itemised
 * errors (`RESOLVE_ERRORS`) for what is missing. Pure: the caller loads the customer, its
 * beneficial owners and its documents.
 *
 * Requirements by platform, customer type and jurisdiction:
 *
 * Individuals, always: fullName, birthDate, address (line1, city, postalCode, country) and an
 * identity document (PASSPORT, DRIVERS_LICENSE or NATIONAL_ID).
 * - US (address, else nationality, else region): idType SSN or ITIN, and the identifier.
 * - EEA: nationality, email, phoneNumber (the provider verifies contacts) and a proof-of-address document.
 * - elsewhere: nationality, idType and the identifier.
 * - unregulated platforms (the service does the due diligence): purposeOfAccount,
 *   sourceOfFundsCategories and expectedMonthlyTransactionVolume; from VOLUME_100K_TO_1M up
 *   also sourceOfWealthCategories and netWorthRange.
 *
 * Businesses, always: businessInfo legalName, country, incorporatedOn, taxId and
 * registrationNumber; address (line1, city, postalCode, country); a legal-presence document;
 * at least one beneficial owner; every owner holding 25 % or more, and every control person,
 * with complete personal info (firstName, lastName, birthDate, nationality, address, idType,
 * identifier) and an identity document of their own.
 * - EEA businesses and every business on an unregulated platform: a proof-of-address document.
 * - unregulated platforms: an ownership-structure document.
 */

export const VERIFICATION_ERROR_TYPES = [
  'MISSING_FIELD',
  'INVALID_FIELD',
  'MISSING_LEGAL_PRESENCE_DOCUMENT',
  'MISSING_CONTROL_STRUCTURE_DOCUMENT',
  'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
  'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
  'MISSING_IDENTITY_DOCUMENT',
  'INVALID_DOCUMENT',
  'EXPIRED_DOCUMENT',
  'POOR_QUALITY_DOCUMENT',
  'SUSPECTED_FRAUD_DOCUMENT',
  'WRONG_DOCUMENT_TYPE',
  'INCOMPLETE_DOCUMENT',
  'UNREADABLE_DOCUMENT',
  'DOCUMENT_VERIFICATION_FAILED',
  'APPLICANT_SANCTIONED',
  'APPLICANT_FRAUD',
  'APPLICANT_CRIMINAL_RECORD',
  'APPLICANT_REJECTED',
  'MISSING_BENEFICIAL_OWNER',
  'MISSING_CONTROL_PERSON',
  'MISSING_GOOD_STANDING_DOCUMENT',
] as const;
export type VerificationErrorType = (typeof VERIFICATION_ERROR_TYPES)[number];

export interface VerificationError {
  resourceId: string;
  type: VerificationErrorType;
  field?: string;
  acceptedDocumentTypes?: DocumentType[];
  reason: string;
}

export interface PacketAddress {
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
  country?: string | null;
}

export interface PacketCustomer {
  id: string;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  regionCode?: string | null;
  fullName?: string | null;
  birthDate?: string | null;
  nationality?: string | null;
  email?: string | null;
  phoneNumber?: string | null;
  address?: PacketAddress | null;
  /** Whether a sealed tax identifier is on file (the value itself never reaches these rules). */
  hasIdentifier: boolean;
  /** idType, countryOfIssuance, EDD attributes; `businessInfo` for businesses. */
  profile: Record<string, unknown>;
}

export interface PacketOwner {
  id: string;
  roles: string[];
  ownershipPercentage: number;
  personalInfo: {
    firstName?: string | null;
    lastName?: string | null;
    birthDate?: string | null;
    nationality?: string | null;
    address?: PacketAddress | null;
    idType?: string | null;
  };
  hasIdentifier: boolean;
}

export interface PacketDocument {
  id: string;
  documentHolder: string;
  documentType: DocumentType;
}

export interface VerificationPacket {
  platform: { isRegulatedFinancialInstitution: boolean };
  customer: PacketCustomer;
  owners: PacketOwner[];
  documents: PacketDocument[];
}

export type Jurisdiction = 'US' | 'EEA' | 'OTHER';

/** US, EEA or elsewhere, from a country code, falling back to the customer's region. */
export function jurisdictionOf(country: string | null | undefined, regionCode?: string | null): Jurisdiction {
  const code = country ?? null;
  if (code) return code === 'US' ? 'US' : isEeaCountry(code) ? 'EEA' : 'OTHER';
  if (regionCode === 'EU') return 'EEA';
  if (regionCode === 'US' || !regionCode) return 'US';
  return isEeaCountry(regionCode) ? 'EEA' : 'OTHER';
}

export const OWNERSHIP_THRESHOLD_PERCENT = 25;
const HIGH_VOLUME_TIERS = new Set(['VOLUME_100K_TO_1M', 'VOLUME_1M_TO_10M', 'VOLUME_OVER_10M']);
const US_TAX_ID_TYPES = new Set(['SSN', 'ITIN']);

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

const ADDRESS_PARTS: [keyof PacketAddress, string][] = [
  ['line1', 'line 1'],
  ['city', 'city'],
  ['postalCode', 'postal code'],
  ['country', 'country'],
];

function missingAddress(resourceId: string, prefix: string, who: string, address: PacketAddress | null | undefined): VerificationError[] {
  return ADDRESS_PARTS.filter(([key]) => blank(address?.[key])).map(([key, label]) => ({
    resourceId,
    type: 'MISSING_FIELD' as const,
    field: `${prefix}.address.${key}`,
    reason: `${who} address ${label} is required`,
  }));
}

function missingDocument(
  resourceId: string,
  held: PacketDocument[],
  type: VerificationErrorType,
  accepted: readonly DocumentType[],
  reason: string,
): VerificationError[] {
  if (held.some((d) => d.documentHolder === resourceId && accepted.includes(d.documentType))) return [];
  return [{ resourceId, type, acceptedDocumentTypes: [...accepted], reason }];
}

function missingField(resourceId: string, field: string, reason: string): VerificationError {
  return { resourceId, type: 'MISSING_FIELD', field, reason };
}

/** Every requirement the packet does not meet, in a stable order; empty when complete. */
export function packetErrors(packet: VerificationPacket): VerificationError[] {
  return packet.customer.customerType === 'BUSINESS' ? businessErrors(packet) : individualErrors(packet);
}

function individualErrors({ platform, customer: c, documents }: VerificationPacket): VerificationError[] {
  const errors: VerificationError[] = [];
  const id = c.id;
  const p = c.profile;
  const where = jurisdictionOf(c.address?.country ?? c.nationality, c.regionCode);
  if (blank(c.fullName)) errors.push(missingField(id, 'customer.fullName', 'Full name is required'));
  if (blank(c.birthDate)) errors.push(missingField(id, 'customer.birthDate', 'Date of birth is required'));
  if (where !== 'US' && blank(c.nationality)) errors.push(missingField(id, 'customer.nationality', 'Nationality is required'));
  errors.push(...missingAddress(id, 'customer', 'Residential', c.address));
  if (where === 'EEA') {
    if (blank(c.email)) errors.push(missingField(id, 'customer.email', 'Email is required for customers whose contact details are verified'));
    if (blank(c.phoneNumber))
      errors.push(missingField(id, 'customer.phoneNumber', 'Phone number is required for customers whose contact details are verified'));
  } else {
    const idType = typeof p.idType === 'string' ? p.idType : null;
    if (!idType) {
      errors.push(
        missingField(
          id,
          'customer.idType',
          where === 'US' ? 'Tax identification type (SSN or ITIN) is required for US residents' : 'Tax identification type is required',
        ),
      );
    } else if (where === 'US' && !US_TAX_ID_TYPES.has(idType)) {
      errors.push({ resourceId: id, type: 'INVALID_FIELD', field: 'customer.idType', reason: 'Only SSN and ITIN are accepted for US residents' });
    }
    if (!c.hasIdentifier) errors.push(missingField(id, 'customer.identifier', 'Tax identification number is required'));
  }
  if (!platform.isRegulatedFinancialInstitution) {
    if (blank(p.purposeOfAccount)) errors.push(missingField(id, 'customer.purposeOfAccount', 'Purpose of account is required'));
    if (blank(p.sourceOfFundsCategories)) errors.push(missingField(id, 'customer.sourceOfFundsCategories', 'Source of funds is required'));
    if (blank(p.expectedMonthlyTransactionVolume))
      errors.push(missingField(id, 'customer.expectedMonthlyTransactionVolume', 'Expected monthly transaction volume is required'));
    if (HIGH_VOLUME_TIERS.has(String(p.expectedMonthlyTransactionVolume))) {
      if (blank(p.sourceOfWealthCategories))
        errors.push(missingField(id, 'customer.sourceOfWealthCategories', 'Source of wealth is required from a monthly volume of 100K USD'));
      if (blank(p.netWorthRange)) errors.push(missingField(id, 'customer.netWorthRange', 'Net worth range is required from a monthly volume of 100K USD'));
    }
  }
  errors.push(
    ...missingDocument(
      id,
      documents,
      'MISSING_IDENTITY_DOCUMENT',
      IDENTITY_DOCUMENTS,
      'An identity document (passport, driver license or national ID) is required',
    ),
  );
  if (where === 'EEA') {
    errors.push(...missingDocument(id, documents, 'MISSING_PROOF_OF_ADDRESS_DOCUMENT', PROOF_OF_ADDRESS_DOCUMENTS, 'Proof of address document is required'));
  }
  return errors;
}

const BUSINESS_INFO_FIELDS: [string, string][] = [
  ['legalName', 'Legal name'],
  ['country', 'Country of incorporation'],
  ['incorporatedOn', 'Date of incorporation'],
  ['taxId', 'Tax identification number'],
  ['registrationNumber', 'Registration number'],
];

const OWNER_FIELDS: [keyof PacketOwner['personalInfo'], string][] = [
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['birthDate', 'Date of birth'],
  ['nationality', 'Nationality'],
  ['idType', 'Identification type'],
];

/** Owners whose identity the business verification needs: 25 % or more, or a control person. */
export function ownerNeedsVerification(owner: Pick<PacketOwner, 'ownershipPercentage' | 'roles'>): boolean {
  return owner.ownershipPercentage >= OWNERSHIP_THRESHOLD_PERCENT || owner.roles.includes('CONTROL_PERSON');
}

function businessErrors({ platform, customer: c, owners, documents }: VerificationPacket): VerificationError[] {
  const errors: VerificationError[] = [];
  const id = c.id;
  const info = (c.profile.businessInfo ?? {}) as Record<string, unknown>;
  const where = jurisdictionOf((typeof info.country === 'string' ? info.country : null) ?? c.address?.country, c.regionCode);
  for (const [key, label] of BUSINESS_INFO_FIELDS) {
    if (blank(info[key])) errors.push(missingField(id, `customer.businessInfo.${key}`, `${label} is required`));
  }
  errors.push(...missingAddress(id, 'customer', 'Business', c.address));
  errors.push(...missingDocument(id, documents, 'MISSING_LEGAL_PRESENCE_DOCUMENT', LEGAL_PRESENCE_DOCUMENTS, 'A company formation document is required'));
  if (!platform.isRegulatedFinancialInstitution) {
    errors.push(
      ...missingDocument(
        id,
        documents,
        'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
        OWNERSHIP_STRUCTURE_DOCUMENTS,
        'A document showing the ownership structure is required',
      ),
    );
  }
  if (where === 'EEA' || !platform.isRegulatedFinancialInstitution) {
    errors.push(...missingDocument(id, documents, 'MISSING_PROOF_OF_ADDRESS_DOCUMENT', PROOF_OF_ADDRESS_DOCUMENTS, 'Proof of address document is required'));
  }
  if (owners.length === 0) {
    errors.push({ resourceId: id, type: 'MISSING_BENEFICIAL_OWNER', reason: 'At least one beneficial owner is required' });
  }
  for (const owner of owners.filter(ownerNeedsVerification)) {
    for (const [key, label] of OWNER_FIELDS) {
      if (blank(owner.personalInfo[key])) errors.push(missingField(owner.id, `personalInfo.${key}`, `${label} is required for beneficial owners`));
    }
    if (!owner.hasIdentifier) errors.push(missingField(owner.id, 'personalInfo.identifier', 'Identification number is required for beneficial owners'));
    errors.push(...missingAddress(owner.id, 'personalInfo', 'Beneficial owner', owner.personalInfo.address));
    errors.push(
      ...missingDocument(owner.id, documents, 'MISSING_IDENTITY_DOCUMENT', IDENTITY_DOCUMENTS, 'An identity document is required for beneficial owners'),
    );
  }
  return errors;
}

import { BENEFICIAL_OWNER_ROLES, IDENTIFICATION_TYPES, ownerIdentityProblems } from '../domain/beneficial-owners';
import { isCountryCode } from '../../../domain/countries';
import { DOCUMENT_SIDES, DOCUMENT_TYPES } from '../domain/documents';
import { VERIFICATION_ERROR_TYPES } from '../domain/verification-requirements';
import { VERIFICATION_STATUSES } from '../domain/verification-sandbox';
import { z } from '../../../api/openapi-registry';
import { PageQuerySchema, pageOf } from '../../../api/schemas/common';

// Beneficial owners, documents, verifications and hosted KYC links (reference §2.4–2.6).

const E164 = /^\+[1-9]\d{1,14}$/;
const KYC_STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'] as const;

export const CountryCode = z
  .string()
  .refine(isCountryCode, { message: 'must be an ISO 3166-1 alpha-2 country code', params: { constraint: 'iso3166-1-alpha-2' } })
  .openapi({ example: 'US', description: 'ISO 3166-1 alpha-2' });

/** A real calendar date, YYYY-MM-DD, in the past and not before 1900. */
const BirthDate = z.iso
  .date()
  .refine((d) => Number.isNaN(Date.parse(d)) || (Date.parse(d) < Date.now() && d >= '1900-01-01'), {
    message: 'must be a past date from 1900 on',
    params: { constraint: 'past' },
  })
  .openapi({ example: '1978-06-15' });

const OwnerAddressSchema = z
  .object({
    line1: z.string().min(1).max(255),
    line2: z.string().max(255).optional(),
    city: z.string().min(1).max(255).optional(),
    state: z.string().max(255).optional(),
    postalCode: z.string().min(1).max(32),
    country: CountryCode,
  })
  .openapi('BeneficialOwnerAddress');

const personalInfoShape = {
  firstName: z.string().min(1).max(250),
  middleName: z.string().min(1).max(250).optional(),
  lastName: z.string().min(1).max(250),
  birthDate: BirthDate,
  nationality: CountryCode,
  email: z.email().max(255).optional(),
  phoneNumber: z.string().regex(E164, 'must be an E.164 phone number such as +14155550123').optional(),
  address: OwnerAddressSchema,
  idType: z.enum(IDENTIFICATION_TYPES),
  identifier: z.string().min(1).max(100).openapi({ description: 'Write-only: stored encrypted, never returned', writeOnly: true }),
  countryOfIssuance: CountryCode.optional(),
};

/**
 * The identity fields of a personal info that are valid on their own: the cross-field rules judge
 * only those, so a field the schema already reports is not reported twice.
 */
export function wellFormedIdentity(raw: unknown): Parameters<typeof ownerIdentityProblems>[0] {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const info = raw as Record<string, unknown>;
  const valid = (schema: z.ZodType, value: unknown) => value !== undefined && schema.safeParse(value).success;
  const address = info.address && typeof info.address === 'object' ? (info.address as Record<string, unknown>) : undefined;
  return {
    ...(valid(CountryCode, info.nationality) ? { nationality: info.nationality as string } : {}),
    ...(address && valid(CountryCode, address.country) ? { address: { country: address.country as string } } : {}),
    ...(valid(personalInfoShape.idType, info.idType) ? { idType: info.idType as string } : {}),
    ...(typeof info.identifier === 'string' ? { identifier: info.identifier } : {}),
    ...(valid(CountryCode, info.countryOfIssuance) ? { countryOfIssuance: info.countryOfIssuance as string } : {}),
  };
}

/**
 * Reports the cross-field identity rules at `personalInfo.*`. It runs even when other fields
 * failed (`when`), so that one response lists every invalid field.
 */
const identityRules = z.superRefine(
  (info: unknown, ctx) => {
    for (const p of ownerIdentityProblems(wellFormedIdentity(info))) {
      ctx.addIssue({ code: 'custom', message: p.message, path: p.field.split('.').slice(1), params: { constraint: p.constraint } });
    }
  },
  { when: () => true },
);

export const OwnerPersonalInfoSchema = z.object(personalInfoShape).strict().check(identityRules).openapi('BeneficialOwnerPersonalInfo');

export const OwnerPersonalInfoUpdateSchema = z
  .object({
    firstName: personalInfoShape.firstName.optional(),
    middleName: personalInfoShape.middleName,
    lastName: personalInfoShape.lastName.optional(),
    birthDate: BirthDate.optional(),
    nationality: CountryCode.optional(),
    email: personalInfoShape.email,
    phoneNumber: personalInfoShape.phoneNumber,
    address: OwnerAddressSchema.optional(),
    idType: personalInfoShape.idType.optional(),
    identifier: personalInfoShape.identifier.optional(),
    countryOfIssuance: CountryCode.optional(),
  })
  .strict()
  .openapi('BeneficialOwnerPersonalInfoUpdate');

const Roles = z
  .array(z.enum(BENEFICIAL_OWNER_ROLES))
  .min(1)
  .max(BENEFICIAL_OWNER_ROLES.length)
  .refine((r) => new Set(r).size === r.length, { message: 'roles must not repeat', params: { constraint: 'uniqueItems' } });
const Percentage = z.number().int().min(0).max(100).openapi({ description: 'Whole percent, 0 to 100' });

export const BeneficialOwnerCreateSchema = z
  .object({
    customerId: z.string().min(1).max(200).openapi({ description: 'A BUSINESS customer of the platform' }),
    roles: Roles,
    ownershipPercentage: Percentage,
    personalInfo: OwnerPersonalInfoSchema,
  })
  .strict()
  .openapi('BeneficialOwnerCreateRequest');

export const BeneficialOwnerUpdateSchema = z
  .object({ roles: Roles.optional(), ownershipPercentage: Percentage.optional(), personalInfo: OwnerPersonalInfoUpdateSchema.optional() })
  .strict()
  .openapi('BeneficialOwnerUpdateRequest');

export const BeneficialOwnerSchema = z
  .object({
    id: z.string().openapi({ example: 'BeneficialOwner:019542f5-b3e7-1d02-0000-000000000001' }),
    customerId: z.string(),
    roles: z.array(z.enum(BENEFICIAL_OWNER_ROLES)),
    ownershipPercentage: z.number().int(),
    personalInfo: z
      .object({
        firstName: z.string(),
        middleName: z.string().optional(),
        lastName: z.string(),
        birthDate: z.string(),
        nationality: z.string(),
        email: z.string().optional(),
        phoneNumber: z.string().optional(),
        address: OwnerAddressSchema,
        idType: z.enum(IDENTIFICATION_TYPES),
        countryOfIssuance: z.string().optional(),
      })
      .openapi('BeneficialOwnerPersonalInfoResponse', { description: 'The identifier is write-only and never returned' }),
    kycStatus: z.enum(KYC_STATUSES),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('BeneficialOwner');

export const BeneficialOwnerListQuerySchema = PageQuerySchema.extend({
  customerId: z.string().min(1).max(200).openapi({ description: 'The business customer (required)' }),
});
export const BeneficialOwnerListSchema = pageOf(BeneficialOwnerSchema, 'BeneficialOwnerListResponse');

// Documents: multipart/form-data; every field arrives as a string.
const documentFieldsShape = {
  documentType: z.enum(DOCUMENT_TYPES),
  side: z.enum(DOCUMENT_SIDES).optional(),
  country: CountryCode,
  documentNumber: z.string().min(1).max(100).optional(),
  issuingAuthority: z.string().min(1).max(255).optional(),
};

export const DocumentUploadFieldsSchema = z
  .object({ ...documentFieldsShape, documentHolder: z.string().min(1).max(200).openapi({ description: 'A Customer or BeneficialOwner id' }) })
  .strict();
export const DocumentReplaceFieldsSchema = z.object(documentFieldsShape).strict();

const FileField = z.string().openapi({ type: 'string', format: 'binary', description: 'PDF, JPEG or PNG, at most 10 MB' });
export const DocumentUploadRequestSchema = DocumentUploadFieldsSchema.extend({ file: FileField }).openapi('DocumentUploadRequest');
export const DocumentReplaceRequestSchema = DocumentReplaceFieldsSchema.extend({ file: FileField }).openapi('DocumentReplaceRequest');

export const DocumentSchema = z
  .object({
    id: z.string().openapi({ example: 'Document:019542f5-b3e7-1d02-0000-000000000001' }),
    documentHolder: z.string(),
    documentType: z.enum(DOCUMENT_TYPES),
    side: z.enum(DOCUMENT_SIDES).optional(),
    country: z.string(),
    documentNumber: z.string().optional(),
    issuingAuthority: z.string().optional(),
    fileName: z.string(),
    mimeType: z.enum(['application/pdf', 'image/jpeg', 'image/png']),
    fileSize: z.number().int().openapi({ description: 'Bytes' }),
    sha256: z.string().openapi({ description: 'Hex SHA-256 of the stored file' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Document');

export const DocumentListQuerySchema = PageQuerySchema.extend({ documentHolder: z.string().min(1).max(200).optional() });
export const DocumentListSchema = pageOf(DocumentSchema, 'DocumentListResponse');

// Verifications.
export const VerificationErrorSchema = z
  .object({
    resourceId: z.string(),
    type: z.enum(VERIFICATION_ERROR_TYPES),
    field: z.string().optional(),
    acceptedDocumentTypes: z.array(z.enum(DOCUMENT_TYPES)).optional(),
    reason: z.string(),
  })
  .openapi('VerificationError');

export const VerificationSchema = z
  .object({
    id: z.string().openapi({ example: 'Verification:019542f5-b3e7-1d02-0000-000000000001' }),
    customerId: z.string(),
    verificationStatus: z.enum(VERIFICATION_STATUSES),
    errors: z.array(VerificationErrorSchema),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Verification');

export const VerificationRequestSchema = z
  .object({ customerId: z.string().min(1).max(200) })
  .strict()
  .openapi('VerificationRequest');
export const VerificationListQuerySchema = PageQuerySchema.extend({
  customerId: z.string().min(1).max(200).optional(),
  verificationStatus: z.enum(VERIFICATION_STATUSES).optional(),
});
export const VerificationListSchema = pageOf(VerificationSchema, 'VerificationListResponse');

// Hosted KYC links.
export const KycLinkCreateSchema = z
  .object({
    redirectUri: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .openapi({ description: 'Where the hosted flow sends the customer when done' }),
  })
  .strict()
  .openapi('KycLinkCreateRequest');

export const KycLinkSchema = z
  .object({
    kycUrl: z.string().openapi({ description: 'Single-use hosted URL; expires at expiresAt' }),
    expiresAt: z.iso.datetime(),
    provider: z.enum(['SUMSUB']),
    token: z.string().optional().openapi({ description: "Token for the provider's SDK instead of the hosted URL" }),
  })
  .openapi('KycLinkResponse');

import { MAX_UMA_ADDRESS } from '../domain/customer-rules';
import { z } from '../../../api/openapi-registry';
import { PageQuerySchema, pageOf } from '../../../api/schemas/common';
import {
  AcceptanceMethodSchema,
  AddressSchema,
  AgreementTypeSchema,
  businessInfoFields,
  CurrencyCodeSchema,
  CustomerTypeSchema,
  eddFields,
  IdTypeSchema,
  RegionCodeSchema,
} from '../schemas/customer-requests';

// Customers: the list query and the responses. The create and update requests are declared in
// ../schemas/customer-requests.ts, which the services share; they are re-exported here for the routes.

export {
  AddressSchema,
  CustomerCreateSchema,
  CustomerUpdateSchema,
  type CustomerCreateRequest,
  type CustomerUpdateRequest,
} from '../schemas/customer-requests';

export const KycStatusSchema = z.enum(['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD']).openapi('KycStatus');

const dateTimeFilter = (description: string) => z.iso.datetime({ offset: true }).optional().openapi({ description });

export const CustomerListQuerySchema = PageQuerySchema.extend({
  platformCustomerId: z.string().min(1).max(255).optional(),
  customerType: CustomerTypeSchema.optional(),
  createdAfter: dateTimeFilter('Customers created at or after this time'),
  createdBefore: dateTimeFilter('Customers created at or before this time'),
  updatedAfter: dateTimeFilter('Customers updated at or after this time'),
  updatedBefore: dateTimeFilter('Customers updated at or before this time'),
  region: RegionCodeSchema.optional(),
  currency: CurrencyCodeSchema.optional().openapi({ description: 'Customers whose currencies include this one' }),
  umaAddress: z.string().min(1).max(MAX_UMA_ADDRESS).optional().openapi({ description: 'Exact UMA address (case-insensitive)' }),
  isIncludingDeleted: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .openapi({ type: 'boolean', description: 'Include soft-deleted customers; default false' }),
});

// ---------------------------------------------------------------------------------------------
// Responses.

const consentResponseFields = {
  termsVersion: z.string(),
  acceptedAt: z.iso.datetime({ offset: true }),
  ipAddress: z.string(),
  acceptanceMethod: AcceptanceMethodSchema,
};
export const AgreementConsentSchema = z.object({ agreementType: AgreementTypeSchema, ...consentResponseFields }).openapi('AgreementConsent');
export const EndUserTermsConsentSchema = z.object(consentResponseFields).openapi('EndUserTermsConsent', { deprecated: true });
export const ContactVerificationSchema = z
  .object({ email: z.enum(['PENDING', 'VERIFIED']).optional(), phone: z.enum(['PENDING', 'VERIFIED']).optional() })
  .openapi('ContactVerification', { description: "Present only where the customer's provider verifies contact details (e.g. the EU)" });

const customerResponseFields = {
  id: z.string().openapi({ example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' }),
  platformCustomerId: z.string(),
  umaAddress: z.string(),
  region: z.string().optional().openapi({ description: "Country code (ISO 3166-1 alpha-2, or EU) of the customer's regulatory jurisdiction" }),
  currencies: z.array(z.string()),
  email: z.string().optional(),
  phoneNumber: z.string().optional(),
  agreementConsents: z
    .array(AgreementConsentSchema)
    .optional()
    .openapi({ description: 'One entry per accepted agreement type, the latest acceptance of each; omitted when none' }),
  endUserTermsConsent: EndUserTermsConsentSchema.optional().openapi({
    deprecated: true,
    description: 'Deprecated: the SVC_END_USER_TERMS entry of agreementConsents',
  }),
  contactVerification: ContactVerificationSchema.optional(),
  isDeleted: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

export const IndividualCustomerSchema = z
  .object({
    customerType: z.literal('INDIVIDUAL'),
    kycStatus: KycStatusSchema,
    ...customerResponseFields,
    fullName: z.string().optional(),
    birthDate: z.string().optional(),
    nationality: z.string().optional(),
    address: AddressSchema.optional(),
    idType: IdTypeSchema.optional(),
    countryOfIssuance: z.string().optional(),
    ...z.object(eddFields).partial().shape,
  })
  .openapi('IndividualCustomer');

export const BusinessInfoResponseSchema = z.object(businessInfoFields).partial().required({ legalName: true }).openapi('BusinessInfoResponse');

export const BusinessCustomerSchema = z
  .object({
    customerType: z.literal('BUSINESS'),
    kybStatus: KycStatusSchema.openapi('KybStatus'),
    ...customerResponseFields,
    address: AddressSchema.optional(),
    businessInfo: BusinessInfoResponseSchema,
  })
  .openapi('BusinessCustomer');

export const CustomerSchema = z.discriminatedUnion('customerType', [IndividualCustomerSchema, BusinessCustomerSchema]).openapi('Customer');

export const CustomerListSchema = pageOf(CustomerSchema, 'CustomerListResponse');

export const EndUserTermsSchema = z.object({ version: z.string(), url: z.url() }).openapi('EndUserTerms');

import { ACCEPTANCE_METHODS, AGREEMENT_TYPES } from '../domain/agreements';
import { isCountryCode, isRegionCode } from '../../../domain/countries';
import { SUPPORTED_CURRENCY_CODES } from '../../../domain/currencies';
import {
  acceptedAtProblem,
  ANNUAL_INCOME_RANGE,
  birthDateProblem,
  BUSINESS_OTHER_PAIRS,
  BUSINESS_SOURCE_OF_FUNDS,
  BUSINESS_TYPE,
  businessTaxIdProblems,
  consentProblems,
  contactChangeProblems,
  duplicateIndexes,
  E164,
  ENTITY_TYPE,
  EXPECTED_MONTHLY_TRANSACTION_COUNT,
  EXPECTED_MONTHLY_TRANSACTION_VOLUME,
  ID_TYPES,
  INDIVIDUAL_OTHER_PAIRS,
  INDIVIDUAL_SOURCE_OF_FUNDS,
  isIpAddress,
  isUmaAddress,
  MAX_DESCRIPTION,
  MAX_EMAIL,
  MAX_FULL_NAME,
  MAX_IDENTIFIER,
  MAX_IP_ADDRESS,
  MAX_UMA_ADDRESS,
  NAICS,
  NET_WORTH_RANGE,
  otherDescriptionProblems,
  pastOrTodayProblem,
  PEP_STATUS,
  PURPOSE_OF_ACCOUNT,
  SOURCE_OF_WEALTH,
  taxIdentificationProblems,
  type OtherPair,
  type RuleIssue,
} from '../domain/customer-rules';
import { z } from '../../../schemas/zod';
import { fieldErrors } from '../../../schemas/field-errors';
import type { FieldError } from '../../../domain/errors';

// The requests that create and update customers (individual and business, discriminated by
// customerType), shared by the API, which validates and documents them, and the services that
// judge a body as POST /customers would (the bulk import). Cross-field rules live in
// ../domain/customer-rules.ts; the schemas apply them with checks that run even when other
// fields failed, so that one response lists every invalid field.

type Values = Record<string, unknown>;

function report(ctx: z.core.$RefinementCtx, issues: RuleIssue[]): void {
  for (const issue of issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, params: { constraint: issue.constraint } });
}

/** Attaches a cross-field rule that sees the (possibly partly invalid) object and reports its issues. */
function withRule<T extends z.ZodObject>(schema: T, rule: (values: Values) => RuleIssue[]): T {
  return schema.check(
    z.superRefine(
      (value: unknown, ctx) => {
        if (value && typeof value === 'object' && !Array.isArray(value)) report(ctx, rule(value as Values));
      },
      { when: () => true },
    ),
  );
}

/** An array whose items must not repeat; a repeat is reported at its index. */
function uniqueList<T extends z.ZodType>(item: T) {
  return z.array(item).check(
    z.superRefine(
      (list: unknown, ctx) => {
        if (!Array.isArray(list)) return;
        for (const i of duplicateIndexes(list))
          ctx.addIssue({ code: 'custom', path: [i], message: 'must not repeat an earlier entry', params: { constraint: 'unique' } });
      },
      { when: () => true },
    ),
  );
}

function fromProblem(check: (value: unknown) => Omit<RuleIssue, 'path'> | null) {
  return (value: unknown, ctx: z.core.$RefinementCtx) => {
    const problem = check(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.message, params: { constraint: problem.constraint } });
  };
}

// ---------------------------------------------------------------------------------------------
// Field types.

export const CountryCodeSchema = z
  .string()
  .refine(isCountryCode, { message: 'must be an ISO 3166-1 alpha-2 country code', params: { constraint: 'iso3166-1-alpha-2' } })
  .openapi({ description: 'ISO 3166-1 alpha-2 country code', example: 'US' });

export const RegionCodeSchema = z
  .string()
  .refine(isRegionCode, { message: 'must be an ISO 3166-1 alpha-2 country code (or EU)', params: { constraint: 'iso3166-1-alpha-2' } })
  .openapi({ description: "Country code (ISO 3166-1 alpha-2) of the customer's regulatory jurisdiction; EU for the European Union", example: 'US' });

export const CurrencyCodeSchema = z.enum(SUPPORTED_CURRENCY_CODES).openapi({ description: 'ISO 4217 code for fiat, ticker for crypto' });

const CurrencyListSchema = uniqueList(CurrencyCodeSchema)
  .min(1)
  .openapi({
    description:
      'Currencies the customer uses; each must be enabled for the platform. EUR (EU provider) and GBP (UK provider) combine only with a customer of that region, and never both on one customer.',
    example: ['USD', 'USDC'],
  });

const EmailSchema = z.email().max(MAX_EMAIL);
const PhoneSchema = z.string().regex(E164, 'must be an E.164 phone number such as +14155550123').openapi({ example: '+14155550123' });
const UmaAddressSchema = z
  .string()
  .max(MAX_UMA_ADDRESS)
  .refine((v) => v.length > MAX_UMA_ADDRESS || isUmaAddress(v), {
    message: 'must be a UMA address such as $alice@uma.example.com',
    params: { constraint: 'pattern' },
  })
  .openapi({ example: '$john.doe@uma.example.com' });

const BirthDateSchema = z
  .string()
  .superRefine(fromProblem(birthDateProblem))
  .openapi({ format: 'date', description: 'YYYY-MM-DD, in the past', example: '1990-01-15' });
const PastDateSchema = z
  .string()
  .superRefine(fromProblem(pastOrTodayProblem))
  .openapi({ format: 'date', description: 'YYYY-MM-DD, not in the future', example: '2018-03-14' });
const DescriptionSchema = z.string().min(1).max(MAX_DESCRIPTION);
const NameSchema = z.string().min(1).max(MAX_FULL_NAME);

export const AddressSchema = z
  .object({
    line1: z.string().min(1).max(255),
    line2: z.string().max(255).optional(),
    city: z.string().max(255).optional(),
    state: z.string().max(255).optional(),
    postalCode: z.string().min(1).max(32),
    country: CountryCodeSchema,
  })
  .openapi('Address');

export const CustomerTypeSchema = z.enum(['INDIVIDUAL', 'BUSINESS']).openapi('CustomerType');
export const AcceptanceMethodSchema = z.enum(ACCEPTANCE_METHODS).openapi('EndUserTermsAcceptanceMethod');
const PurposeOfAccountSchema = z.enum(PURPOSE_OF_ACCOUNT).openapi('PurposeOfAccount');
const TransactionCountSchema = z.enum(EXPECTED_MONTHLY_TRANSACTION_COUNT).openapi('ExpectedMonthlyTransactionCount');
const TransactionVolumeSchema = z.enum(EXPECTED_MONTHLY_TRANSACTION_VOLUME).openapi('ExpectedMonthlyTransactionVolume');
export const IdTypeSchema = z.enum(ID_TYPES).openapi('IdentificationType');
export const AgreementTypeSchema = z.enum(AGREEMENT_TYPES).openapi('AgreementType');

const consentFields = {
  termsVersion: z
    .string()
    .min(1)
    .max(64)
    .openapi({ description: 'A version the service publishes (GET /customers/end-user-terms for the current end-user terms)', example: '2025-10-13' }),
  acceptedAt: z.iso.datetime({ offset: true }).superRefine(fromProblem(acceptedAtProblem)).openapi({ example: '2025-10-20T14:03:00Z' }),
  ipAddress: z
    .string()
    .max(MAX_IP_ADDRESS)
    .refine((v) => v.length > MAX_IP_ADDRESS || isIpAddress(v), { message: 'must be an IPv4 or IPv6 address', params: { constraint: 'ip' } })
    .openapi({ example: '203.0.113.7' }),
  acceptanceMethod: AcceptanceMethodSchema,
};

export const EndUserTermsConsentRequestSchema = z
  .object(consentFields)
  .openapi('EndUserTermsConsentRequest', { deprecated: true, description: 'Deprecated: equals one agreementConsents entry of type SVC_END_USER_TERMS.' });
export const AgreementConsentRequestSchema = z.object({ agreementType: AgreementTypeSchema, ...consentFields }).openapi('AgreementConsentRequest');

// ---------------------------------------------------------------------------------------------
// Enhanced due diligence (individuals) and business information.

export const eddFields = {
  sourceOfFundsCategories: uniqueList(z.enum(INDIVIDUAL_SOURCE_OF_FUNDS)).min(1),
  sourceOfFundsOtherDescription: DescriptionSchema.openapi({ description: 'Required when sourceOfFundsCategories includes OTHER; refused otherwise' }),
  sourceOfWealthCategories: uniqueList(z.enum(SOURCE_OF_WEALTH)).min(1),
  sourceOfWealthOtherDescription: DescriptionSchema.openapi({ description: 'Required when sourceOfWealthCategories includes OTHER; refused otherwise' }),
  purposeOfAccount: PurposeOfAccountSchema,
  purposeOfAccountOtherDescription: DescriptionSchema.openapi({ description: 'Required when purposeOfAccount is OTHER; refused otherwise' }),
  expectedMonthlyTransactionCount: TransactionCountSchema,
  expectedMonthlyTransactionVolume: TransactionVolumeSchema,
  annualIncomeRange: z.enum(ANNUAL_INCOME_RANGE).openapi('AnnualIncomeRange'),
  netWorthRange: z.enum(NET_WORTH_RANGE).openapi('NetWorthRange'),
  pepStatus: z.enum(PEP_STATUS).openapi('PepStatus'),
};

const individualFields = {
  fullName: NameSchema.openapi({ example: 'John Michael Doe' }),
  birthDate: BirthDateSchema,
  nationality: CountryCodeSchema,
  address: AddressSchema,
  idType: IdTypeSchema,
  identifier: z.string().min(1).max(MAX_IDENTIFIER).openapi({
    writeOnly: true,
    description: 'Tax identification number; write-only, stored encrypted, never returned. US holders: SSN (###-##-####) or ITIN only.',
    example: '123-45-6789',
  }),
  countryOfIssuance: CountryCodeSchema.openapi({ description: 'Country that issued the identification; defaults to US, and must be US for SSN and ITIN' }),
  ...eddFields,
};

export const businessInfoFields = {
  legalName: NameSchema.openapi({ example: 'Acme Corporation, Inc.' }),
  doingBusinessAs: NameSchema.optional(),
  country: CountryCodeSchema.openapi({ description: 'Country of incorporation or registration' }),
  registrationNumber: z.string().min(1).max(100).optional().openapi({ example: '5523041' }),
  incorporatedOn: PastDateSchema,
  entityType: z.enum(ENTITY_TYPE).openapi('EntityType').optional(),
  taxId: z
    .string()
    .min(1)
    .max(MAX_IDENTIFIER)
    .openapi({ description: 'Tax identification number; a US business gives its EIN (##-#######)', example: '12-3456789' }),
  countriesOfOperation: uniqueList(CountryCodeSchema).optional(),
  businessType: z.enum(BUSINESS_TYPE).openapi('BusinessType').optional(),
  purposeOfAccount: PurposeOfAccountSchema.optional(),
  sourceOfFunds: DescriptionSchema.optional(),
  expectedMonthlyTransactionCount: TransactionCountSchema.optional(),
  expectedMonthlyTransactionVolume: TransactionVolumeSchema.optional(),
  expectedRecipientJurisdictions: uniqueList(CountryCodeSchema).optional(),
  naicsCode: z.string().regex(NAICS, 'must be a NAICS code of 2 to 6 digits').optional().openapi({ example: '522320' }),
  sourceOfFundsCategories: uniqueList(z.enum(BUSINESS_SOURCE_OF_FUNDS).openapi('SourceOfFundsCategory')).min(1).optional(),
  sourceOfFundsOtherDescription: DescriptionSchema.optional().openapi({
    description: 'Required when sourceOfFundsCategories includes OTHER; refused otherwise',
  }),
  purposeOfAccountOtherDescription: DescriptionSchema.optional().openapi({ description: 'Required when purposeOfAccount is OTHER; refused otherwise' }),
  expectedCounterpartyCountries: uniqueList(CountryCodeSchema).optional(),
  primaryContactFirstName: NameSchema.optional(),
  primaryContactLastName: NameSchema.optional(),
};

/** Only the pairs whose category the request names: a description sent alone is judged against the stored category. */
function pairsNamedIn(values: Values, pairs: readonly OtherPair[]): OtherPair[] {
  return pairs.filter((p) => values[p.category] !== undefined);
}

export const BusinessInfoSchema = withRule(z.object(businessInfoFields), (v) => [
  ...otherDescriptionProblems(v, BUSINESS_OTHER_PAIRS),
  ...businessTaxIdProblems(v),
]).openapi('BusinessInfo');

export const BusinessInfoUpdateSchema = withRule(z.object(businessInfoFields).partial(), (v) => [
  ...otherDescriptionProblems(v, pairsNamedIn(v, BUSINESS_OTHER_PAIRS)),
  ...(v.country !== undefined ? businessTaxIdProblems(v) : []),
]).openapi('BusinessInfoUpdate');

// ---------------------------------------------------------------------------------------------
// Requests.

const createFields = {
  platformCustomerId: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .openapi({ description: "The platform's own id for the customer; generated when absent; unique among the platform's active customers" }),
  region: RegionCodeSchema.optional().openapi({ description: "Regulatory jurisdiction; defaults to the platform's. Cannot be changed later." }),
  currencies: CurrencyListSchema.optional().openapi({ description: "Defaults to the platform's currencies that the customer's region can hold" }),
  email: EmailSchema.optional(),
  phoneNumber: PhoneSchema.optional(),
  umaAddress: UmaAddressSchema.optional().openapi({
    description:
      "On the platform's UMA domain (its default domain while it has none; another domain is 400); generated there when absent; unique among the platform's customers (409 UMA_ADDRESS_EXISTS)",
  }),
  agreementConsents: z.array(AgreementConsentRequestSchema).max(20).optional().openapi({ description: 'At most one entry per agreementType' }),
  endUserTermsConsent: EndUserTermsConsentRequestSchema.optional(),
};

const individualCreateRule = (v: Values) => [...taxIdentificationProblems(v), ...otherDescriptionProblems(v, INDIVIDUAL_OTHER_PAIRS), ...consentProblems(v)];

export const IndividualCustomerCreateSchema = withRule(
  z.object({ customerType: z.literal('INDIVIDUAL'), ...createFields, ...z.object(individualFields).partial().shape }),
  individualCreateRule,
).openapi('IndividualCustomerCreateRequest');

export const BusinessCustomerCreateSchema = withRule(
  z.object({ customerType: z.literal('BUSINESS'), ...createFields, address: AddressSchema.optional(), businessInfo: BusinessInfoSchema }),
  consentProblems,
).openapi('BusinessCustomerCreateRequest');

export const CustomerCreateSchema = z
  .discriminatedUnion('customerType', [IndividualCustomerCreateSchema, BusinessCustomerCreateSchema])
  .openapi('CustomerCreateRequest');

const updateFields = {
  currencies: CurrencyListSchema.optional().openapi({ description: 'Replaces the whole list' }),
  email: EmailSchema.optional().openapi({ description: 'Changed in a call of its own: not together with phoneNumber' }),
  phoneNumber: PhoneSchema.optional().openapi({ description: 'Changed in a call of its own: not together with email' }),
  umaAddress: UmaAddressSchema.optional().openapi({
    description: "A new address must be on the platform's UMA domain (400 otherwise); the stored one may be sent unchanged",
  }),
  agreementConsents: z
    .array(AgreementConsentRequestSchema)
    .max(20)
    .optional()
    .openapi({ description: 'Adds or renews acceptances, one entry per agreementType; agreements not named keep their acceptance' }),
  endUserTermsConsent: EndUserTermsConsentRequestSchema.optional(),
};

const updateRule = (pairs: readonly OtherPair[]) => (v: Values) => [
  ...otherDescriptionProblems(v, pairsNamedIn(v, pairs)),
  ...consentProblems(v),
  ...contactChangeProblems(v),
];

export const IndividualCustomerUpdateSchema = withRule(
  z.object({ customerType: z.literal('INDIVIDUAL'), ...updateFields, ...z.object(individualFields).partial().shape }),
  (v) => [...updateRule(INDIVIDUAL_OTHER_PAIRS)(v), ...taxIdentificationProblems(v)],
).openapi('IndividualCustomerUpdateRequest');

export const BusinessCustomerUpdateSchema = withRule(
  z.object({ customerType: z.literal('BUSINESS'), ...updateFields, address: AddressSchema.optional(), businessInfo: BusinessInfoUpdateSchema.optional() }),
  (v) => [...consentProblems(v), ...contactChangeProblems(v)],
).openapi('BusinessCustomerUpdateRequest');

export const CustomerUpdateSchema = z
  .discriminatedUnion('customerType', [IndividualCustomerUpdateSchema, BusinessCustomerUpdateSchema])
  .openapi('CustomerUpdateRequest');

export type CustomerCreateRequest = z.infer<typeof CustomerCreateSchema>;
export type CustomerUpdateRequest = z.infer<typeof CustomerUpdateSchema>;

/** A body judged as POST /customers' schema judges it: the request it stands for, or every invalid field. */
export function parseCustomerCreateRequest(body: unknown): { request: CustomerCreateRequest; problems: [] } | { request?: undefined; problems: FieldError[] } {
  const parsed = CustomerCreateSchema.safeParse(body, { reportInput: true });
  return parsed.success ? { request: parsed.data, problems: [] } : { problems: fieldErrors(parsed.error) };
}

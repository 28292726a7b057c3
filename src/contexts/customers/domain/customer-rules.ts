import { isIP } from 'node:net';
import { isCountryCode } from '../../../domain/countries';

/**
 * Validation rules of customers (spec §2.7, reference 2.2/2.3), as pure functions. Each rule
 * returns the problems it finds as `{ path, constraint, message }`; the API schemas turn them into
 * field errors, so that every invalid field of a request is reported at once. Rules never echo the
 * value they judge (a tax identification number must not reach a response or a log).
 */
export interface RuleIssue {
  path: (string | number)[];
  constraint: string;
  message: string;
}

type Values = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Enumerations of the profile (reference §2.0).

export const ID_TYPES = ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'] as const;
export type IdType = (typeof ID_TYPES)[number];

export const INDIVIDUAL_SOURCE_OF_FUNDS = [
  'SALARY',
  'SELF_EMPLOYMENT_INCOME',
  'INVESTMENT_INCOME',
  'PENSION',
  'RENTAL_INCOME',
  'GIFT',
  'INHERITANCE',
  'LOAN',
  'SAVINGS',
  'SALE_OF_ASSETS',
  'OTHER',
] as const;
export const SOURCE_OF_WEALTH = ['SALARY', 'BUSINESS_INCOME', 'INVESTMENTS', 'INHERITANCE', 'PROPERTY_SALE', 'GIFT', 'RETIREMENT', 'SAVINGS', 'OTHER'] as const;
export const PURPOSE_OF_ACCOUNT = [
  'CONTRACTOR_PAYOUTS',
  'CREATOR_PAYOUTS',
  'EMPLOYEE_PAYOUTS',
  'MARKETPLACE_SELLER_PAYOUTS',
  'SUPPLIER_PAYMENTS',
  'CROSS_BORDER_B2B',
  'AR_AUTOMATION',
  'AP_AUTOMATION',
  'EMBEDDED_PAYMENTS',
  'PLATFORM_FEE_COLLECTION',
  'P2P_TRANSFERS',
  'CHARITABLE_DONATIONS',
  'OTHER',
] as const;
export const EXPECTED_MONTHLY_TRANSACTION_COUNT = ['COUNT_UNDER_10', 'COUNT_10_TO_100', 'COUNT_100_TO_500', 'COUNT_500_TO_1000', 'COUNT_OVER_1000'] as const;
export const EXPECTED_MONTHLY_TRANSACTION_VOLUME = [
  'VOLUME_UNDER_10K',
  'VOLUME_10K_TO_100K',
  'VOLUME_100K_TO_1M',
  'VOLUME_1M_TO_10M',
  'VOLUME_OVER_10M',
] as const;
export const ANNUAL_INCOME_RANGE = ['UNDER_50K', 'RANGE_50K_100K', 'RANGE_100K_250K', 'RANGE_250K_1M', 'OVER_1M'] as const;
export const NET_WORTH_RANGE = ['UNDER_100K', 'RANGE_100K_500K', 'RANGE_500K_1M', 'RANGE_1M_5M', 'RANGE_5M_25M', 'OVER_25M'] as const;
export const PEP_STATUS = ['NONE', 'DOMESTIC', 'FOREIGN', 'HIO', 'FAMILY_OR_ASSOCIATE'] as const;
export const ENTITY_TYPE = [
  'SOLE_PROPRIETORSHIP',
  'PARTNERSHIP',
  'LLC',
  'CORPORATION',
  'S_CORPORATION',
  'NON_PROFIT',
  'PUBLICLY_LISTED_COMPANY',
  'TRUST',
  'PRIVATE_FOUNDATION',
  'CHARITY',
  'OTHER',
] as const;
export const BUSINESS_TYPE = [
  'AGRICULTURE_FORESTRY_FISHING_AND_HUNTING',
  'MINING_QUARRYING_AND_OIL_AND_GAS_EXTRACTION',
  'UTILITIES',
  'CONSTRUCTION',
  'MANUFACTURING',
  'WHOLESALE_TRADE',
  'RETAIL_TRADE',
  'TRANSPORTATION_AND_WAREHOUSING',
  'INFORMATION',
  'FINANCE_AND_INSURANCE',
  'REAL_ESTATE_AND_RENTAL_AND_LEASING',
  'PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES',
  'MANAGEMENT_OF_COMPANIES_AND_ENTERPRISES',
  'ADMINISTRATIVE_AND_SUPPORT_AND_WASTE_MANAGEMENT_AND_REMEDIATION_SERVICES',
  'EDUCATIONAL_SERVICES',
  'HEALTH_CARE_AND_SOCIAL_ASSISTANCE',
  'ARTS_ENTERTAINMENT_AND_RECREATION',
  'ACCOMMODATION_AND_FOOD_SERVICES',
  'OTHER_SERVICES',
  'PUBLIC_ADMINISTRATION',
] as const;
export const BUSINESS_SOURCE_OF_FUNDS = [
  'OPERATING_REVENUE',
  'INVESTMENT_INCOME',
  'LOANS',
  'VENTURE_CAPITAL',
  'PERSONAL_SAVINGS',
  'DONATIONS',
  'OTHER',
] as const;

/** The enhanced-due-diligence attributes of an individual: optional, patchable, top-level fields. */
export const EDD_FIELDS = [
  'sourceOfFundsCategories',
  'sourceOfFundsOtherDescription',
  'sourceOfWealthCategories',
  'sourceOfWealthOtherDescription',
  'purposeOfAccount',
  'purposeOfAccountOtherDescription',
  'expectedMonthlyTransactionCount',
  'expectedMonthlyTransactionVolume',
  'annualIncomeRange',
  'netWorthRange',
  'pepStatus',
] as const;

/** Individual attributes kept in `customers.profile` (the identifier itself is sealed apart), in response order. */
export const INDIVIDUAL_PROFILE_KEYS = ['idType', 'countryOfIssuance', ...EDD_FIELDS] as const;

// ---------------------------------------------------------------------------------------------
// Limits (spec §8).

export const MAX_EMAIL = 255;
export const MAX_FULL_NAME = 250;
export const MAX_IDENTIFIER = 100;
export const MAX_DESCRIPTION = 500;
export const MAX_IP_ADDRESS = 45;

// ---------------------------------------------------------------------------------------------
// Contact details.

/** Strict E.164: a plus, a non-zero digit, at most 15 digits in all. */
export const E164 = /^\+[1-9]\d{1,14}$/;

export function isE164(value: unknown): boolean {
  return typeof value === 'string' && E164.test(value);
}

/** Email and phone number change in separate calls (spec §4.4 rule 4): a PATCH naming both is refused. */
export function contactChangeProblems(request: Values): RuleIssue[] {
  if (request.email === undefined || request.phoneNumber === undefined) return [];
  const message = 'email and phoneNumber must be changed in separate requests';
  return [
    { path: ['email'], constraint: 'exclusive', message },
    { path: ['phoneNumber'], constraint: 'exclusive', message },
  ];
}

// ---------------------------------------------------------------------------------------------
// Dates.

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written `YYYY-MM-DD`, as a UTC midnight; null for anything else (2023-02-30, 1990-13-45, 1990-1-5). */
export function parseCalendarDate(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = ISO_DATE.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date;
}

function utcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Oldest plausible date of birth: anything earlier is a typing error. */
export const EARLIEST_BIRTH_DATE = '1900-01-01';

/** A date of birth: a real calendar date, strictly before today (UTC), not before 1900. */
export function birthDateProblem(value: unknown, now: Date = new Date()): Omit<RuleIssue, 'path'> | null {
  const date = parseCalendarDate(value);
  if (!date) return { constraint: 'date', message: 'must be a real calendar date written YYYY-MM-DD' };
  if (date >= utcDay(now)) return { constraint: 'past', message: 'must be a date in the past' };
  if (date < parseCalendarDate(EARLIEST_BIRTH_DATE)!) return { constraint: 'minimum', message: `must not be before ${EARLIEST_BIRTH_DATE}` };
  return null;
}

/** A date that has happened (incorporation): a real calendar date, today at the latest. */
export function pastOrTodayProblem(value: unknown, now: Date = new Date()): Omit<RuleIssue, 'path'> | null {
  const date = parseCalendarDate(value);
  if (!date) return { constraint: 'date', message: 'must be a real calendar date written YYYY-MM-DD' };
  if (date > utcDay(now)) return { constraint: 'past', message: 'must not be in the future' };
  return null;
}

// ---------------------------------------------------------------------------------------------
// Tax identification of individuals.

/** `###-##-####`; area 000, 666 and 900–999, group 00 and serial 0000 are never issued. */
export const SSN_FORMAT = /^(\d{3})-(\d{2})-(\d{4})$/;

export function isValidSsn(value: string): boolean {
  const m = SSN_FORMAT.exec(value);
  if (!m) return false;
  const area = Number(m[1]);
  return area !== 0 && area !== 666 && area < 900 && m[2] !== '00' && m[3] !== '0000';
}

/** `9##-##-####` with the fourth and fifth digits in an IRS ITIN group: 50–65, 70–88, 90–92 or 94–99. */
export function isValidItin(value: string): boolean {
  const m = SSN_FORMAT.exec(value);
  if (!m || !m[1]!.startsWith('9')) return false;
  const group = Number(m[2]);
  return (group >= 50 && group <= 65) || (group >= 70 && group <= 88) || (group >= 90 && group <= 92) || group >= 94;
}

/** A non-US tax number: letters and digits with spaces, dots, slashes or dashes between them. */
const NON_US_TAX_ID = /^[A-Za-z0-9](?:[A-Za-z0-9 ./-]*[A-Za-z0-9])?$/;

export const DEFAULT_COUNTRY_OF_ISSUANCE = 'US';

/**
 * The tax identification of an individual (`idType`, `identifier`, `countryOfIssuance`):
 *  - `identifier` and `idType` come together; `countryOfIssuance` only with them;
 *  - `countryOfIssuance` defaults to US; SSN and ITIN are US-issued, so any other country is refused;
 *  - a US holder (issuing country US) is accepted only with an SSN (`###-##-####`, a number the SSA
 *    issues) or an ITIN (`9##-##-####` with a valid ITIN group);
 *  - EIN identifies businesses, never an individual;
 *  - NON_US_TAX_ID needs a non-US issuing country and a plausible number.
 * Judges only what is present and well typed; the schema reports wrong types and lengths.
 */
export function taxIdentificationProblems(values: Values): RuleIssue[] {
  const { idType, identifier, countryOfIssuance } = values;
  const issues: RuleIssue[] = [];
  const hasIdType = idType !== undefined;
  const hasIdentifier = identifier !== undefined;
  if (hasIdentifier && !hasIdType) issues.push({ path: ['idType'], constraint: 'required', message: 'idType is required with identifier' });
  if (hasIdType && !hasIdentifier) issues.push({ path: ['identifier'], constraint: 'required', message: 'identifier is required with idType' });
  if (countryOfIssuance !== undefined && !hasIdType && !hasIdentifier) {
    issues.push({ path: ['countryOfIssuance'], constraint: 'dependentRequired', message: 'countryOfIssuance is only accepted with idType and identifier' });
  }
  if (!hasIdType || !(ID_TYPES as readonly unknown[]).includes(idType)) return issues;
  if (countryOfIssuance !== undefined && !isCountryCode(countryOfIssuance)) return issues;
  const country = (countryOfIssuance as string | undefined) ?? DEFAULT_COUNTRY_OF_ISSUANCE;

  if (idType === 'EIN') {
    issues.push({ path: ['idType'], constraint: 'enum', message: 'EIN identifies businesses; an individual is identified by SSN, ITIN or NON_US_TAX_ID' });
    return issues;
  }
  if ((idType === 'SSN' || idType === 'ITIN') && country !== 'US') {
    issues.push({ path: ['countryOfIssuance'], constraint: 'enum', message: `${idType} is issued by the US: countryOfIssuance must be US` });
    return issues;
  }
  if (idType === 'NON_US_TAX_ID' && country === 'US') {
    issues.push({
      path: ['idType'],
      constraint: 'enum',
      message: 'US account holders are accepted only with an SSN or ITIN; a non-US tax id needs its countryOfIssuance (which defaults to US)',
    });
    return issues;
  }
  if (typeof identifier !== 'string' || identifier.length === 0 || identifier.length > MAX_IDENTIFIER) return issues;
  if (idType === 'SSN' && !isValidSsn(identifier)) {
    issues.push({
      path: ['identifier'],
      constraint: 'pattern',
      message: 'must be an SSN written ###-##-#### (area not 000, 666 or 9xx; group not 00; serial not 0000)',
    });
  } else if (idType === 'ITIN' && !isValidItin(identifier)) {
    issues.push({
      path: ['identifier'],
      constraint: 'pattern',
      message: 'must be an ITIN written 9##-##-#### with a valid ITIN group (50-65, 70-88, 90-92, 94-99)',
    });
  } else if (idType === 'NON_US_TAX_ID' && !NON_US_TAX_ID.test(identifier)) {
    issues.push({
      path: ['identifier'],
      constraint: 'pattern',
      message: 'must be letters and digits, optionally separated by spaces, dots, slashes or dashes',
    });
  }
  return issues;
}

/** A PATCH changes the tax identification as a whole; it is complete when it carries idType and identifier. */
export const TAX_IDENTIFICATION_FIELDS = ['idType', 'identifier', 'countryOfIssuance'] as const;

// ---------------------------------------------------------------------------------------------
// Business tax id.

/** A US Employer Identification Number: nine digits, usually written ##-#######. */
export const EIN_FORMAT = /^\d{2}-?\d{7}$/;

/** A business's `taxId`: an EIN when the business is incorporated in the US; any other country keeps its own format. */
export function businessTaxIdProblems(businessInfo: Values): RuleIssue[] {
  const { taxId, country } = businessInfo;
  if (typeof taxId !== 'string' || country !== 'US') return [];
  if (EIN_FORMAT.test(taxId)) return [];
  return [{ path: ['taxId'], constraint: 'pattern', message: 'a US business is identified by its EIN, written ##-####### (nine digits)' }];
}

/** North American Industry Classification System code: two to six digits. */
export const NAICS = /^\d{2,6}$/;

// ---------------------------------------------------------------------------------------------
// The OTHER rule of enhanced due diligence.

/** A category list or enum and the free-text description that goes with its OTHER value. */
export interface OtherPair {
  category: string;
  description: string;
}

export const INDIVIDUAL_OTHER_PAIRS: readonly OtherPair[] = [
  { category: 'sourceOfFundsCategories', description: 'sourceOfFundsOtherDescription' },
  { category: 'sourceOfWealthCategories', description: 'sourceOfWealthOtherDescription' },
  { category: 'purposeOfAccount', description: 'purposeOfAccountOtherDescription' },
];

export const BUSINESS_OTHER_PAIRS: readonly OtherPair[] = [
  { category: 'sourceOfFundsCategories', description: 'sourceOfFundsOtherDescription' },
  { category: 'purposeOfAccount', description: 'purposeOfAccountOtherDescription' },
];

export function selectsOther(category: unknown): boolean {
  return category === 'OTHER' || (Array.isArray(category) && category.includes('OTHER'));
}

/**
 * Each `*OtherDescription` is required when its category list contains OTHER (or its enum is
 * OTHER), and refused otherwise (also when the category is absent). Judges the given pairs on a
 * complete set of values: the request on create, the stored profile with the request applied on
 * update.
 */
export function otherDescriptionProblems(values: Values, pairs: readonly OtherPair[] = INDIVIDUAL_OTHER_PAIRS): RuleIssue[] {
  const issues: RuleIssue[] = [];
  for (const { category, description } of pairs) {
    const hasDescription = values[description] !== undefined;
    if (selectsOther(values[category]) && !hasDescription) {
      issues.push({ path: [description], constraint: 'required', message: `${description} is required when ${category} includes OTHER` });
    } else if (!selectsOther(values[category]) && hasDescription) {
      issues.push({ path: [description], constraint: 'notAllowed', message: `${description} is accepted only when ${category} includes OTHER` });
    }
  }
  return issues;
}

/**
 * Applies an update to an EDD profile: fields present replace stored ones; a category changed to
 * a value without OTHER drops the stored description that no longer applies.
 */
export function applyOtherPairs(stored: Values, request: Values, pairs: readonly OtherPair[]): Values {
  const merged: Values = { ...stored, ...request };
  for (const { category, description } of pairs) {
    if (request[category] !== undefined && !selectsOther(request[category]) && request[description] === undefined) delete merged[description];
  }
  return merged;
}

// ---------------------------------------------------------------------------------------------
// Lists.

/** Entries of a list that repeat an earlier one, by index. */
export function duplicateIndexes(list: readonly unknown[], key: (item: unknown) => unknown = (x) => x): number[] {
  const seen = new Set<unknown>();
  const dupes: number[] = [];
  list.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) dupes.push(i);
    seen.add(k);
  });
  return dupes;
}

// ---------------------------------------------------------------------------------------------
// Agreement consents.

/** An acceptance may be stamped a little ahead of our clock, not more. */
export const ACCEPTED_AT_SKEW_MS = 5 * 60_000;

export function isIpAddress(value: unknown): boolean {
  return typeof value === 'string' && value.length <= MAX_IP_ADDRESS && isIP(value) !== 0;
}

export function acceptedAtProblem(value: unknown, now: Date = new Date()): Omit<RuleIssue, 'path'> | null {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return null; // the format check reports it
  if (Date.parse(value) > now.getTime() + ACCEPTED_AT_SKEW_MS) return { constraint: 'past', message: 'must not be in the future' };
  return null;
}

/**
 * `agreementConsents` and the deprecated `endUserTermsConsent` (spec §4.4): at most one entry per
 * agreement type, and never both fields in one request.
 */
export function consentProblems(request: Values): RuleIssue[] {
  const issues: RuleIssue[] = [];
  if (request.agreementConsents !== undefined && request.endUserTermsConsent !== undefined) {
    const message = 'send agreementConsents or the deprecated endUserTermsConsent, not both';
    issues.push({ path: ['agreementConsents'], constraint: 'exclusive', message }, { path: ['endUserTermsConsent'], constraint: 'exclusive', message });
  }
  if (Array.isArray(request.agreementConsents)) {
    const typeOf = (c: unknown) => (c && typeof c === 'object' ? (c as Values).agreementType : undefined);
    for (const i of duplicateIndexes(request.agreementConsents, typeOf)) {
      if (typeOf(request.agreementConsents[i]) === undefined) continue;
      issues.push({ path: ['agreementConsents', i, 'agreementType'], constraint: 'unique', message: 'at most one entry per agreementType' });
    }
  }
  return issues;
}

// ---------------------------------------------------------------------------------------------
// UMA addresses.

export { isUmaAddress, MAX_UMA_ADDRESS, UMA_ADDRESS } from '../../../domain/identifiers/uma';

/**
 * A UMA address for a customer that did not ask for one: `$<handle>.<suffix>@<domain>` on the
 * platform's domain (platforms/domain/uma-domains: umaDomainOf), the handle
 * taken from the platform's customer id where it has usable characters, the suffix random.
 */
export function generatedUmaAddress(platformCustomerId: string, domain: string, randomSuffix: string): string {
  const handle =
    platformCustomerId
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '')
      .replace(/^[^a-z0-9]+/, '')
      .slice(0, 40)
      .replace(/[^a-z0-9]+$/, '') || 'user';
  return `$${handle}.${randomSuffix.toLowerCase()}@${domain}`;
}

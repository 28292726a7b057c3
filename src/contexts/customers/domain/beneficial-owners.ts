import type { FieldError } from '../../../domain/errors';

export const BENEFICIAL_OWNER_ROLES = ['UBO', 'DIRECTOR', 'COMPANY_OFFICER', 'CONTROL_PERSON', 'TRUSTEE', 'GENERAL_PARTNER'] as const;
export const IDENTIFICATION_TYPES = ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'] as const;

export const SSN_PATTERN = /^\d{3}-\d{2}-\d{4}$/;
/** ITINs are nine digits starting with 9, written like an SSN. */
export const ITIN_PATTERN = /^9\d{2}-\d{2}-\d{4}$/;

export interface OwnerIdentity {
  nationality?: string | null;
  address?: { country?: string | null } | null;
  idType?: string | null;
  /** The plain identifier when one is being written; undefined when unchanged or absent. */
  identifier?: string | null;
  countryOfIssuance?: string | null;
}

/**
 * Cross-field rules on an owner's identification, the customers' tax-id rules applied to a person:
 * - EIN identifies businesses, never an owner;
 * - US persons (nationality or address in the US) identify with SSN or ITIN only;
 * - an SSN is written ###-##-####, an ITIN 9##-##-####;
 * - the issuing country of an SSN or ITIN defaults to US and may not be anything else.
 * Returns every problem, with dot paths under `personalInfo`.
 */
export function ownerIdentityProblems(info: OwnerIdentity): FieldError[] {
  const problems: FieldError[] = [];
  const usPerson = info.nationality === 'US' || info.address?.country === 'US';
  if (info.idType === 'EIN') {
    problems.push({ field: 'personalInfo.idType', constraint: 'enum', message: 'EIN identifies a business; use SSN, ITIN or NON_US_TAX_ID for a person' });
  } else if (usPerson && info.idType && info.idType !== 'SSN' && info.idType !== 'ITIN') {
    problems.push({ field: 'personalInfo.idType', constraint: 'usTaxId', message: 'only SSN and ITIN are accepted for US persons' });
  }
  if (typeof info.identifier === 'string') {
    if (info.idType === 'SSN' && !SSN_PATTERN.test(info.identifier)) {
      problems.push({ field: 'personalInfo.identifier', constraint: 'pattern', message: 'an SSN must look like ###-##-####' });
    }
    if (info.idType === 'ITIN' && !ITIN_PATTERN.test(info.identifier)) {
      problems.push({ field: 'personalInfo.identifier', constraint: 'pattern', message: 'an ITIN must look like 9##-##-####' });
    }
  }
  if ((info.idType === 'SSN' || info.idType === 'ITIN') && info.countryOfIssuance && info.countryOfIssuance !== 'US') {
    problems.push({ field: 'personalInfo.countryOfIssuance', constraint: 'enum', message: `an ${info.idType} is issued by the US` });
  }
  return problems;
}

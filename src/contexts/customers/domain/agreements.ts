import { END_USER_TERMS, type AgreementConsent } from './onboarding';

/**
 * The agreements a customer accepts and the versions of each that the service knows. The last
 * version of each list is the current one: new acceptances may name any known version (a platform
 * may record an acceptance it collected before a newer version was published); an unknown version
 * is `400 END_USER_TERMS_VERSION_NOT_FOUND`.
 */
export const AGREEMENT_TYPES = [END_USER_TERMS, 'SVC_PRIVACY_NOTICE'] as const;
export type AgreementType = (typeof AGREEMENT_TYPES)[number];

export const ACCEPTANCE_METHODS = ['CHECKBOX', 'CLICK_TO_ACCEPT'] as const;

export interface TermsVersion {
  version: string;
  url: string;
  publishedOn: string;
}

const LEGAL_BASE_URL = 'https://legal.payments-service.example';

export const AGREEMENT_VERSIONS: Record<AgreementType, readonly TermsVersion[]> = {
  SVC_END_USER_TERMS: [
    { version: '2025-01-15', url: `${LEGAL_BASE_URL}/end-user-terms/2025-01-15`, publishedOn: '2025-01-15' },
    { version: '2025-10-13', url: `${LEGAL_BASE_URL}/end-user-terms/2025-10-13`, publishedOn: '2025-10-13' },
  ],
  SVC_PRIVACY_NOTICE: [{ version: '2025-06-01', url: `${LEGAL_BASE_URL}/privacy-notice/2025-06-01`, publishedOn: '2025-06-01' }],
};

export function isAgreementType(value: unknown): value is AgreementType {
  return typeof value === 'string' && (AGREEMENT_TYPES as readonly string[]).includes(value);
}

/** The version of an agreement that new customers are shown: `GET /customers/end-user-terms` for the end-user terms. */
export function currentTerms(type: AgreementType = END_USER_TERMS): TermsVersion {
  const versions = AGREEMENT_VERSIONS[type];
  return versions[versions.length - 1]!;
}

export function isKnownTermsVersion(type: AgreementType, version: string): boolean {
  return AGREEMENT_VERSIONS[type].some((v) => v.version === version);
}

/** The first consent naming a version its agreement does not have, if any. */
export function unknownTermsVersion(consents: readonly AgreementConsent[]): AgreementConsent | undefined {
  return consents.find((c) => !isAgreementType(c.agreementType) || !isKnownTermsVersion(c.agreementType, c.termsVersion));
}

/** The deprecated single-acceptance field, `endUserTermsConsent`: one `SVC_END_USER_TERMS` consent without its type. */
export type EndUserTermsConsent = Omit<AgreementConsent, 'agreementType'>;

/** The consents a request carries: `agreementConsents`, or the deprecated field as one end-user-terms entry. */
export function requestedConsents(input: { agreementConsents?: readonly AgreementConsent[]; endUserTermsConsent?: EndUserTermsConsent }): AgreementConsent[] {
  if (input.agreementConsents) return [...input.agreementConsents];
  if (input.endUserTermsConsent) return [{ agreementType: END_USER_TERMS, ...input.endUserTermsConsent }];
  return [];
}

/**
 * Records acceptances: one entry per agreement type, the latest acceptance (by `acceptedAt`) of
 * each. A type the request does not name keeps its entry, so nothing is ever withdrawn; a request
 * replaying an older acceptance than the one on file leaves the newer one in place.
 */
export function mergeConsents(existing: readonly AgreementConsent[], incoming: readonly AgreementConsent[]): AgreementConsent[] {
  const byType = new Map<string, AgreementConsent>();
  for (const c of [...existing, ...incoming]) {
    const held = byType.get(c.agreementType);
    if (!held || Date.parse(c.acceptedAt) >= Date.parse(held.acceptedAt)) byType.set(c.agreementType, { ...c });
  }
  return [...byType.values()].sort((a, b) => a.agreementType.localeCompare(b.agreementType));
}

/** What the deprecated response field shows: the end-user-terms consent on file, without its type. */
export function endUserTermsConsentOf(consents: readonly AgreementConsent[]): EndUserTermsConsent | undefined {
  const found = consents.find((c) => c.agreementType === END_USER_TERMS);
  if (!found) return undefined;
  return { termsVersion: found.termsVersion, acceptedAt: found.acceptedAt, ipAddress: found.ipAddress, acceptanceMethod: found.acceptanceMethod };
}

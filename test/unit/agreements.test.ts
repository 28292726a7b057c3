import {
  AGREEMENT_VERSIONS,
  currentTerms,
  endUserTermsConsentOf,
  isAgreementType,
  isKnownTermsVersion,
  mergeConsents,
  requestedConsents,
  unknownTermsVersion,
} from '../../src/contexts/customers/domain/agreements';
import type { AgreementConsent } from '../../src/contexts/customers/domain/onboarding';

const consent = (agreementType: string, acceptedAt: string, termsVersion = '2025-10-13'): AgreementConsent => ({
  agreementType,
  termsVersion,
  acceptedAt,
  ipAddress: '203.0.113.7',
  acceptanceMethod: 'CHECKBOX',
});

describe('agreement versions', () => {
  test('the current end-user terms are the last published version, with a URL', () => {
    const terms = currentTerms();
    const versions = AGREEMENT_VERSIONS.SVC_END_USER_TERMS;
    expect(terms).toEqual(versions[versions.length - 1]);
    expect(terms.version).toBe('2025-10-13');
    expect(new URL(terms.url).protocol).toBe('https:');
    expect(currentTerms('SVC_PRIVACY_NOTICE').version).toBe('2025-06-01');
  });

  test('known versions are per agreement', () => {
    expect(isKnownTermsVersion('SVC_END_USER_TERMS', '2025-10-13')).toBe(true);
    expect(isKnownTermsVersion('SVC_END_USER_TERMS', '2025-01-15')).toBe(true);
    expect(isKnownTermsVersion('SVC_END_USER_TERMS', '2025-06-01')).toBe(false);
    expect(isKnownTermsVersion('SVC_PRIVACY_NOTICE', '2025-06-01')).toBe(true);
    expect(isKnownTermsVersion('SVC_PRIVACY_NOTICE', '2025-10-13')).toBe(false);
  });

  test('agreement types', () => {
    expect(isAgreementType('SVC_END_USER_TERMS')).toBe(true);
    expect(isAgreementType('GRID_END_USER_TERMS')).toBe(false);
    expect(isAgreementType(undefined)).toBe(false);
  });

  test('unknownTermsVersion finds the first consent naming a version its agreement lacks', () => {
    expect(unknownTermsVersion([consent('SVC_END_USER_TERMS', '2025-10-20T00:00:00Z')])).toBeUndefined();
    const bad = consent('SVC_PRIVACY_NOTICE', '2025-10-20T00:00:00Z', '1999-01-01');
    expect(unknownTermsVersion([consent('SVC_END_USER_TERMS', '2025-10-20T00:00:00Z'), bad])).toBe(bad);
    expect(unknownTermsVersion([])).toBeUndefined();
  });
});

describe('consents from a request', () => {
  test('the deprecated endUserTermsConsent is one SVC_END_USER_TERMS consent', () => {
    const { agreementType: _t, ...rest } = consent('SVC_END_USER_TERMS', '2025-10-20T00:00:00Z');
    expect(requestedConsents({ endUserTermsConsent: rest })).toEqual([consent('SVC_END_USER_TERMS', '2025-10-20T00:00:00Z')]);
  });

  test('agreementConsents are taken as given; nothing gives nothing', () => {
    const list = [consent('SVC_PRIVACY_NOTICE', '2025-10-20T00:00:00Z', '2025-06-01')];
    expect(requestedConsents({ agreementConsents: list })).toEqual(list);
    expect(requestedConsents({})).toEqual([]);
  });
});

describe('mergeConsents', () => {
  const terms = consent('SVC_END_USER_TERMS', '2025-10-20T10:00:00Z');
  const privacy = consent('SVC_PRIVACY_NOTICE', '2025-10-21T10:00:00Z', '2025-06-01');

  test('adds a new agreement type and keeps the others (never withdraws)', () => {
    expect(mergeConsents([terms], [privacy])).toEqual([terms, privacy]);
    expect(mergeConsents([terms, privacy], [])).toEqual([terms, privacy]);
  });

  test('a newer acceptance of the same type replaces the older one: one entry per type', () => {
    const renewed = consent('SVC_END_USER_TERMS', '2025-11-01T10:00:00Z');
    expect(mergeConsents([terms, privacy], [renewed])).toEqual([renewed, privacy]);
  });

  test('an older acceptance replayed later does not replace the newer one on file', () => {
    const older = consent('SVC_END_USER_TERMS', '2025-01-20T10:00:00Z', '2025-01-15');
    expect(mergeConsents([terms], [older])).toEqual([terms]);
  });

  test('returns new objects, ordered by type', () => {
    const merged = mergeConsents([privacy], [terms]);
    expect(merged.map((c) => c.agreementType)).toEqual(['SVC_END_USER_TERMS', 'SVC_PRIVACY_NOTICE']);
    expect(merged[0]).not.toBe(terms);
  });
});

describe('the deprecated endUserTermsConsent in responses', () => {
  test('is the SVC_END_USER_TERMS consent without its type', () => {
    const terms = consent('SVC_END_USER_TERMS', '2025-10-20T10:00:00Z');
    expect(endUserTermsConsentOf([consent('SVC_PRIVACY_NOTICE', '2025-10-21T10:00:00Z', '2025-06-01'), terms])).toEqual({
      termsVersion: '2025-10-13',
      acceptedAt: '2025-10-20T10:00:00Z',
      ipAddress: '203.0.113.7',
      acceptanceMethod: 'CHECKBOX',
    });
  });

  test('is absent without one', () => {
    expect(endUserTermsConsentOf([consent('SVC_PRIVACY_NOTICE', '2025-10-21T10:00:00Z', '2025-06-01')])).toBeUndefined();
    expect(endUserTermsConsentOf([])).toBeUndefined();
  });
});

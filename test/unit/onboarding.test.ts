import {
  balanceRefusal,
  END_USER_TERMS,
  kycEventType,
  mayHoldBalances,
  sandboxKycStatusAtCreation,
  sandboxSuffix,
  type AgreementConsent,
} from '../../src/contexts/customers/domain/onboarding';

const terms: AgreementConsent = {
  agreementType: END_USER_TERMS,
  termsVersion: '2025-10-13',
  acceptedAt: '2025-10-20T00:00:00Z',
  ipAddress: '203.0.113.7',
  acceptanceMethod: 'CHECKBOX',
};
const regulated = { isRegulatedFinancialInstitution: true };
const unregulated = { isRegulatedFinancialInstitution: false };

describe('balanceRefusal / mayHoldBalances', () => {
  test.each(['UNVERIFIED', 'PENDING', 'REJECTED', 'HOLD'] as const)('%s customers are not ready, whatever the platform', (kycStatus) => {
    expect(balanceRefusal(regulated, { kycStatus, agreementConsents: [terms] })).toBe('USER_NOT_READY');
    expect(balanceRefusal(unregulated, { kycStatus, agreementConsents: [terms] })).toBe('USER_NOT_READY');
    expect(mayHoldBalances(regulated, { kycStatus, agreementConsents: [terms] })).toBe(false);
  });

  test('a regulated platform needs only approval', () => {
    expect(balanceRefusal(regulated, { kycStatus: 'APPROVED', agreementConsents: [] })).toBeNull();
    expect(mayHoldBalances(regulated, { kycStatus: 'APPROVED', agreementConsents: [] })).toBe(true);
  });

  test('an unregulated platform also needs the end-user terms, not just any agreement', () => {
    expect(balanceRefusal(unregulated, { kycStatus: 'APPROVED', agreementConsents: [] })).toBe('END_USER_TERMS_NOT_ACCEPTED');
    expect(balanceRefusal(unregulated, { kycStatus: 'APPROVED', agreementConsents: [{ ...terms, agreementType: 'SVC_PRIVACY_NOTICE' }] })).toBe(
      'END_USER_TERMS_NOT_ACCEPTED',
    );
    expect(balanceRefusal(unregulated, { kycStatus: 'APPROVED', agreementConsents: [terms] })).toBeNull();
  });
});

describe('kycEventType', () => {
  test('individuals announce KYC, businesses KYB, for PENDING/APPROVED/REJECTED only', () => {
    expect(kycEventType('INDIVIDUAL', 'APPROVED')).toBe('CUSTOMER.KYC_APPROVED');
    expect(kycEventType('BUSINESS', 'PENDING')).toBe('CUSTOMER.KYB_PENDING');
    expect(kycEventType('BUSINESS', 'REJECTED')).toBe('CUSTOMER.KYB_REJECTED');
    expect(kycEventType('INDIVIDUAL', 'UNVERIFIED')).toBeNull();
    expect(kycEventType('INDIVIDUAL', 'HOLD')).toBeNull();
  });
});

describe('sandboxKycStatusAtCreation (spec §8)', () => {
  test.each([
    ['Ada Lovelace', 'APPROVED'],
    ['Ada Lovelace 001', 'PENDING'],
    ['Ada Lovelace 002', 'REJECTED'],
    ['Ada Lovelace 003', 'UNVERIFIED'],
    ['Ada 004', 'APPROVED'],
  ] as const)('regulated individual %j → %s', (fullName, status) => {
    expect(sandboxKycStatusAtCreation(regulated, { customerType: 'INDIVIDUAL', fullName })).toBe(status);
  });

  test('businesses, and everyone on an unregulated platform, start UNVERIFIED', () => {
    expect(sandboxKycStatusAtCreation(regulated, { customerType: 'BUSINESS' })).toBe('UNVERIFIED');
    expect(sandboxKycStatusAtCreation(unregulated, { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' })).toBe('UNVERIFIED');
  });

  test('an individual without a name is approved on a regulated platform', () => {
    expect(sandboxKycStatusAtCreation(regulated, { customerType: 'INDIVIDUAL', fullName: null })).toBe('APPROVED');
  });

  test('the suffix is the last three characters, trimmed', () => {
    expect(sandboxSuffix(' ACME-5523003 ')).toBe('003');
    expect(sandboxSuffix(null)).toBe('');
  });
});

import {
  customerStatusAfter,
  decideSubmission,
  isTerminalKycStatus,
  ownerKycStatus,
  ownershipExceeds100,
  verificationEventType,
  verificationStatusOf,
  type SubmissionFacts,
} from '../../src/contexts/customers/domain/verification-sandbox';
import type { VerificationError } from '../../src/contexts/customers/domain/verification-requirements';

const CUSTOMER = 'Customer:00000000-0000-4000-8000-000000000001';
const missing: VerificationError[] = [{ resourceId: CUSTOMER, type: 'MISSING_FIELD', field: 'customer.fullName', reason: 'Full name is required' }];

function facts(over: Partial<SubmissionFacts>): SubmissionFacts {
  return {
    regulated: true,
    customerType: 'INDIVIDUAL',
    customerId: CUSTOMER,
    kycStatus: 'UNVERIFIED',
    fullName: 'Ada Lovelace',
    errors: [],
    documents: [],
    ...over,
  };
}

describe('decideSubmission: customers already decided', () => {
  test.each([
    [true, 'INDIVIDUAL', 'APPROVED'],
    [true, 'INDIVIDUAL', 'REJECTED'],
    [true, 'BUSINESS', 'APPROVED'],
    [false, 'BUSINESS', 'REJECTED'],
    [false, 'INDIVIDUAL', 'APPROVED'],
  ] as const)('regulated %s, %s %s → refused (400)', (regulated, customerType, kycStatus) => {
    expect(decideSubmission(facts({ regulated, customerType, kycStatus, errors: missing }))).toMatchObject({
      kind: 'REFUSED',
      reason: expect.stringContaining(kycStatus),
    });
  });
});

describe('decideSubmission: regulated platform, business, by registrationNumber suffix', () => {
  const business = (registrationNumber: string | null, errors: VerificationError[] = []) =>
    decideSubmission(facts({ customerType: 'BUSINESS', fullName: null, registrationNumber, errors }));

  test('002 → REJECTED at once, complete or not', () => {
    expect(business('REG-002', missing)).toEqual({ kind: 'DECIDED', status: 'REJECTED' });
    expect(business('REG-002')).toEqual({ kind: 'DECIDED', status: 'REJECTED' });
  });
  test('any other suffix → APPROVED at once, complete or not', () => {
    expect(business('REG-123', missing)).toEqual({ kind: 'DECIDED', status: 'APPROVED' });
    expect(business('REG-000')).toEqual({ kind: 'DECIDED', status: 'APPROVED' });
    expect(business(null, missing)).toEqual({ kind: 'DECIDED', status: 'APPROVED' });
  });
  test('001 and 003 with an incomplete packet → RESOLVE_ERRORS with the packet errors', () => {
    expect(business('REG-001', missing)).toEqual({ kind: 'RESOLVE_ERRORS', errors: missing });
    expect(business('REG-003', missing)).toEqual({ kind: 'RESOLVE_ERRORS', errors: missing });
  });
  test('003 complete → IN_PROGRESS, APPROVED later', () => {
    expect(business('REG-003')).toEqual({ kind: 'LATER', status: 'IN_PROGRESS', outcome: 'APPROVED' });
  });
  test('001 complete → PENDING_MANUAL_REVIEW, APPROVED later', () => {
    expect(business('REG-001')).toEqual({ kind: 'LATER', status: 'PENDING_MANUAL_REVIEW', outcome: 'APPROVED' });
  });
  test('surrounding whitespace is ignored', () => {
    expect(business(' REG-002 ')).toEqual({ kind: 'DECIDED', status: 'REJECTED' });
  });
});

describe('decideSubmission: regulated platform, individual (001 PENDING / 003 UNVERIFIED at creation)', () => {
  const docs = [
    { id: 'Document:1', documentHolder: CUSTOMER, documentType: 'PASSPORT' as const },
    { id: 'Document:2', documentHolder: CUSTOMER, documentType: 'UTILITY_BILL' as const },
    { id: 'Document:3', documentHolder: 'BeneficialOwner:x', documentType: 'PASSPORT' as const },
  ];
  const person = (fullName: string, kycStatus: SubmissionFacts['kycStatus'], errors: VerificationError[] = []) =>
    decideSubmission(facts({ fullName, kycStatus, errors, documents: docs }));

  test('an incomplete packet → RESOLVE_ERRORS', () => {
    expect(person('Ada 001', 'PENDING', missing)).toEqual({ kind: 'RESOLVE_ERRORS', errors: missing });
    expect(person('Ada 003', 'UNVERIFIED', missing)).toEqual({ kind: 'RESOLVE_ERRORS', errors: missing });
  });
  test('001 complete → PENDING_MANUAL_REVIEW, APPROVED later', () => {
    expect(person('Ada 001', 'PENDING')).toEqual({ kind: 'LATER', status: 'PENDING_MANUAL_REVIEW', outcome: 'APPROVED' });
  });
  test('003 complete → RESOLVE_ERRORS with POOR_QUALITY_DOCUMENT on each of its identity documents', () => {
    expect(person('Ada 003', 'UNVERIFIED')).toEqual({
      kind: 'RESOLVE_ERRORS',
      errors: [
        {
          resourceId: 'Document:1',
          type: 'POOR_QUALITY_DOCUMENT',
          acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
          reason: expect.any(String),
        },
      ],
    });
  });
  test('002 (a name changed after creation) complete → IN_PROGRESS, REJECTED later', () => {
    expect(person('Ada 002', 'HOLD')).toEqual({ kind: 'LATER', status: 'IN_PROGRESS', outcome: 'REJECTED' });
  });
  test('any other name complete → IN_PROGRESS, APPROVED later', () => {
    expect(person('Ada Lovelace', 'HOLD')).toEqual({ kind: 'LATER', status: 'IN_PROGRESS', outcome: 'APPROVED' });
  });
});

describe('decideSubmission: unregulated platform', () => {
  const unreg = (over: Partial<SubmissionFacts>) => decideSubmission(facts({ regulated: false, ...over }));

  test('an incomplete packet → RESOLVE_ERRORS, whatever the names say', () => {
    expect(unreg({ errors: missing })).toEqual({ kind: 'RESOLVE_ERRORS', errors: missing });
    expect(unreg({ customerType: 'BUSINESS', registrationNumber: 'R-002', errors: missing })).toEqual({ kind: 'RESOLVE_ERRORS', errors: missing });
    expect(unreg({ fullName: 'Ada 002', errors: missing })).toEqual({ kind: 'RESOLVE_ERRORS', errors: missing });
  });
  test('a complete packet → IN_PROGRESS, APPROVED later', () => {
    expect(unreg({})).toEqual({ kind: 'LATER', status: 'IN_PROGRESS', outcome: 'APPROVED' });
    expect(unreg({ fullName: 'Ada 001' })).toEqual({ kind: 'LATER', status: 'IN_PROGRESS', outcome: 'APPROVED' });
    expect(unreg({ fullName: 'Ada 003' })).toEqual({ kind: 'LATER', status: 'IN_PROGRESS', outcome: 'APPROVED' });
  });
  test('an individual whose fullName ends in 002 → IN_PROGRESS, REJECTED later', () => {
    expect(unreg({ fullName: 'Ada 002' })).toEqual({ kind: 'LATER', status: 'IN_PROGRESS', outcome: 'REJECTED' });
  });
  test('a business resolves APPROVED whatever its registration number', () => {
    expect(unreg({ customerType: 'BUSINESS', fullName: null, registrationNumber: 'R-002' })).toEqual({
      kind: 'LATER',
      status: 'IN_PROGRESS',
      outcome: 'APPROVED',
    });
  });
  test('HOLD and PENDING customers may submit again', () => {
    expect(unreg({ kycStatus: 'HOLD' })).toMatchObject({ kind: 'LATER' });
    expect(unreg({ kycStatus: 'PENDING', errors: missing })).toMatchObject({ kind: 'RESOLVE_ERRORS' });
  });
});

describe('statuses that follow from a decision', () => {
  test('customer status: unchanged on errors, PENDING while waiting, the decision when decided', () => {
    expect(customerStatusAfter({ kind: 'RESOLVE_ERRORS', errors: missing }, 'UNVERIFIED')).toBe('UNVERIFIED');
    expect(customerStatusAfter({ kind: 'RESOLVE_ERRORS', errors: missing }, 'PENDING')).toBe('PENDING');
    expect(customerStatusAfter({ kind: 'LATER', status: 'IN_PROGRESS', outcome: 'APPROVED' }, 'UNVERIFIED')).toBe('PENDING');
    expect(customerStatusAfter({ kind: 'LATER', status: 'PENDING_MANUAL_REVIEW', outcome: 'APPROVED' }, 'UNVERIFIED')).toBe('PENDING');
    expect(customerStatusAfter({ kind: 'DECIDED', status: 'APPROVED' }, 'UNVERIFIED')).toBe('APPROVED');
    expect(customerStatusAfter({ kind: 'DECIDED', status: 'REJECTED' }, 'UNVERIFIED')).toBe('REJECTED');
    expect(customerStatusAfter({ kind: 'REFUSED', reason: 'x' }, 'APPROVED')).toBe('APPROVED');
  });
  test('verification status and its webhook type', () => {
    expect(verificationStatusOf({ kind: 'RESOLVE_ERRORS', errors: [] })).toBe('RESOLVE_ERRORS');
    expect(verificationStatusOf({ kind: 'LATER', status: 'PENDING_MANUAL_REVIEW', outcome: 'APPROVED' })).toBe('PENDING_MANUAL_REVIEW');
    expect(verificationStatusOf({ kind: 'DECIDED', status: 'REJECTED' })).toBe('REJECTED');
    expect(verificationEventType('IN_PROGRESS')).toBe('VERIFICATION.IN_PROGRESS');
    expect(verificationEventType('APPROVED')).toBe('VERIFICATION.APPROVED');
  });
  test('terminal KYC statuses', () => {
    expect(['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'].filter((s) => isTerminalKycStatus(s as never))).toEqual(['APPROVED', 'REJECTED']);
  });
});

describe('ownerKycStatus', () => {
  test.each(['UNVERIFIED', 'PENDING', 'HOLD'] as const)('UNVERIFIED while the business is %s', (status) => {
    expect(ownerKycStatus(status, 'Smith 002')).toBe('UNVERIFIED');
  });
  test.each([
    ['Smith 001', 'PENDING'],
    ['Smith 002', 'REJECTED'],
    ['Smith 003', 'APPROVED'],
    ['Smith', 'APPROVED'],
    [null, 'APPROVED'],
  ] as const)('once the business resolves, lastName %s → %s', (lastName, expected) => {
    expect(ownerKycStatus('APPROVED', lastName)).toBe(expected);
    expect(ownerKycStatus('REJECTED', lastName)).toBe(expected);
  });
});

describe('ownershipExceeds100', () => {
  test('shares may add up to 100 but not more', () => {
    expect(ownershipExceeds100([], 100)).toBe(false);
    expect(ownershipExceeds100([60, 30], 10)).toBe(false);
    expect(ownershipExceeds100([60, 30], 11)).toBe(true);
    expect(ownershipExceeds100([], 0)).toBe(false);
  });
});

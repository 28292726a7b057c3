import { randomBytes } from 'node:crypto';
import {
  CONTACT_CODE_TTL_MS,
  MAX_CONTACT_CODE_ATTEMPTS,
  SANDBOX_CONTACT_CODE,
  codeAttemptError,
  contactCodeMatches,
  contactRegionOf,
  contactVerificationRequired,
  hashContactCode,
  initialContactVerification,
  judgeCodeAttempt,
  newContactCode,
  reconcileContactVerification,
} from '../../src/contexts/customers/domain/contact-verification';

describe('which providers verify contacts', () => {
  test.each(['EU', 'UK'])('%s platforms do', (region) => {
    expect(contactVerificationRequired(region)).toBe(true);
  });
  test.each(['US', 'LATAM', 'APAC', 'AFRICA', '', 'eu'])('%p platforms do not', (region) => {
    expect(contactVerificationRequired(region)).toBe(false);
  });
});

describe('initialContactVerification', () => {
  test('EU: one PENDING entry per contact on file', () => {
    expect(initialContactVerification('EU', { email: 'a@example.com', phoneNumber: '+4915112345678' })).toEqual({ email: 'PENDING', phone: 'PENDING' });
    expect(initialContactVerification('EU', { email: 'a@example.com' })).toEqual({ email: 'PENDING' });
    expect(initialContactVerification('UK', { phoneNumber: '+447700900123', email: null })).toEqual({ phone: 'PENDING' });
  });

  test('EU without any contact: required but nothing to verify yet', () => {
    expect(initialContactVerification('EU', {})).toEqual({});
    expect(initialContactVerification('EU', { email: '', phoneNumber: null })).toEqual({});
  });

  test('elsewhere: no verification object at all', () => {
    expect(initialContactVerification('US', { email: 'a@example.com', phoneNumber: '+14155550123' })).toBeNull();
    expect(initialContactVerification('LATAM', {})).toBeNull();
  });
});

describe('reconcileContactVerification', () => {
  const both = { email: 'a@example.com', phoneNumber: '+4915112345678' };

  test('keeps verified channels', () => {
    expect(reconcileContactVerification('EU', { email: 'VERIFIED', phone: 'PENDING' }, both)).toEqual({ email: 'VERIFIED', phone: 'PENDING' });
  });

  test('a contact added later starts PENDING', () => {
    expect(reconcileContactVerification('EU', { email: 'VERIFIED' }, both)).toEqual({ email: 'VERIFIED', phone: 'PENDING' });
  });

  test('a replaced contact goes back to PENDING', () => {
    expect(reconcileContactVerification('EU', { email: 'VERIFIED', phone: 'VERIFIED' }, both, ['email'])).toEqual({ email: 'PENDING', phone: 'VERIFIED' });
  });

  test('a removed contact leaves the object', () => {
    expect(reconcileContactVerification('EU', { email: 'VERIFIED', phone: 'PENDING' }, { email: 'a@example.com' })).toEqual({ email: 'VERIFIED' });
  });

  test('a legacy customer without state gets one', () => {
    expect(reconcileContactVerification('EU', null, both)).toEqual({ email: 'PENDING', phone: 'PENDING' });
  });

  test('outside regulated regions it is always null', () => {
    expect(reconcileContactVerification('US', { email: 'VERIFIED' }, both)).toBeNull();
  });
});

describe('codes', () => {
  test('the sandbox always issues the documented code', () => {
    expect(SANDBOX_CONTACT_CODE).toBe('123456');
    expect(newContactCode('SANDBOX')).toBe('123456');
  });

  test('production codes are six random digits', () => {
    const codes = Array.from({ length: 200 }, () => newContactCode('PRODUCTION'));
    for (const c of codes) expect(c).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(190);
  });

  test('the hash is keyed, bound to the row and never contains the code', () => {
    const key = randomBytes(32);
    const stored = hashContactCode(key, 'row-1', '123456');
    expect(stored).toMatch(/^hmac-sha256\$[A-Za-z0-9_-]{43}$/);
    expect(stored).not.toContain('123456');
    expect(contactCodeMatches(key, 'row-1', '123456', stored)).toBe(true);
    expect(contactCodeMatches(key, 'row-1', '123457', stored)).toBe(false);
    expect(contactCodeMatches(key, 'row-2', '123456', stored)).toBe(false);
    expect(contactCodeMatches(randomBytes(32), 'row-1', '123456', stored)).toBe(false);
    expect(hashContactCode(key, 'row-2', '123456')).not.toBe(stored);
  });

  test('corrupt stored hashes fail closed', () => {
    const key = randomBytes(32);
    expect(contactCodeMatches(key, 'row-1', '123456', '')).toBe(false);
    expect(contactCodeMatches(key, 'row-1', '123456', 'hmac-sha256$')).toBe(false);
    expect(contactCodeMatches(key, 'row-1', '123456', '123456')).toBe(false);
    const stored = hashContactCode(key, 'row-1', '123456');
    expect(contactCodeMatches(key, 'row-1', '123456', stored.replace('hmac-sha256', 'sha256-hmac'))).toBe(false);
  });
});

describe('judgeCodeAttempt', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const fresh = { expiresAt: new Date(now.getTime() + CONTACT_CODE_TTL_MS), attempts: 0, consumedAt: null };

  test('codes live ten minutes and survive five wrong attempts', () => {
    expect(CONTACT_CODE_TTL_MS).toBe(600_000);
    expect(MAX_CONTACT_CODE_ATTEMPTS).toBe(5);
  });

  test('the right code before expiry verifies', () => {
    expect(judgeCodeAttempt(fresh, now, true)).toEqual({ outcome: 'VERIFIED' });
  });

  test('a wrong code uses up one attempt', () => {
    expect(judgeCodeAttempt(fresh, now, false)).toEqual({ outcome: 'WRONG', attemptsLeft: 4 });
    expect(judgeCodeAttempt({ ...fresh, attempts: 4 }, now, false)).toEqual({ outcome: 'WRONG', attemptsLeft: 0 });
  });

  test('after five wrong attempts even the right code is refused', () => {
    expect(judgeCodeAttempt({ ...fresh, attempts: 5 }, now, true)).toEqual({ outcome: 'ATTEMPTS_EXCEEDED' });
  });

  test('an expired code is refused even with the right digits, at the exact expiry instant too', () => {
    expect(judgeCodeAttempt({ ...fresh, expiresAt: now }, now, true)).toEqual({ outcome: 'EXPIRED' });
    expect(judgeCodeAttempt({ ...fresh, expiresAt: new Date(now.getTime() - 1) }, now, false)).toEqual({ outcome: 'EXPIRED' });
    expect(judgeCodeAttempt({ ...fresh, expiresAt: new Date(now.getTime() + 1) }, now, true)).toEqual({ outcome: 'VERIFIED' });
  });

  test('a used code or none at all is "not requested"', () => {
    expect(judgeCodeAttempt(null, now, true)).toEqual({ outcome: 'NOT_REQUESTED' });
    expect(judgeCodeAttempt({ ...fresh, consumedAt: now }, now, true)).toEqual({ outcome: 'NOT_REQUESTED' });
  });
});

describe('codeAttemptError', () => {
  test('each failure has its own constraint and a message that says what to do', () => {
    expect(codeAttemptError({ outcome: 'WRONG', attemptsLeft: 3 }, 'email')).toEqual({
      reason: 'The verification code is not correct',
      constraint: 'invalid',
      message: 'the code is not correct; 3 attempts left',
    });
    expect(codeAttemptError({ outcome: 'WRONG', attemptsLeft: 1 }, 'email').message).toBe('the code is not correct; 1 attempt left');
    expect(codeAttemptError({ outcome: 'WRONG', attemptsLeft: 0 }, 'phone').message).toContain('POST /customers/{customerId}/verify-phone');
    expect(codeAttemptError({ outcome: 'EXPIRED' }, 'email')).toMatchObject({ constraint: 'expired', reason: 'The verification code has expired' });
    expect(codeAttemptError({ outcome: 'ATTEMPTS_EXCEEDED' }, 'email')).toMatchObject({ constraint: 'attempts_exceeded' });
    expect(codeAttemptError({ outcome: 'NOT_REQUESTED' }, 'phone')).toMatchObject({
      constraint: 'not_requested',
      message: expect.stringContaining('phone number'),
    });
  });
});

describe('contactRegionOf: the customer region decides, the platform region is the fallback', () => {
  test.each([
    ['US', 'DE', 'EU'],
    ['US', 'EU', 'EU'],
    ['EU', 'US', 'US'],
    ['US', 'GB', 'UK'],
    ['EU', 'BR', 'BR'],
    ['EU', null, 'EU'],
    ['UK', undefined, 'UK'],
  ] as const)('platform %s, customer region %s → %s', (platformRegion, customerRegion, expected) => {
    expect(contactRegionOf(platformRegion, customerRegion)).toBe(expected);
    expect(contactVerificationRequired(contactRegionOf(platformRegion, customerRegion))).toBe(expected === 'EU' || expected === 'UK');
  });
});

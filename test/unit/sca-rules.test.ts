import { generateSync } from 'otplib';
import { afterFailedAttempt, isLocked, lockoutView, NO_LOCKOUT, type LockoutState } from '../../src/contexts/sca/domain/lockout';
import { hashScaCode, newScaCode, SANDBOX_SCA_CODE, scaCodeMatches } from '../../src/contexts/sca/domain/one-time-codes';
import { hashRecoveryCode, newRecoveryCodes } from '../../src/contexts/sca/domain/recovery-codes';
import { scaRequired } from '../../src/contexts/sca/domain/sca-region';
import { checkTotp, newTotpSecret, totpUri } from '../../src/contexts/sca/domain/totp';

const MINUTE = 60_000;

describe('who needs SCA', () => {
  test('EU and UK customers (own jurisdiction first, else the platform region); nobody else', () => {
    expect(scaRequired('EU', null)).toBe(true);
    expect(scaRequired('UK', null)).toBe(true);
    expect(scaRequired('US', null)).toBe(false);
    expect(scaRequired('US', 'DE')).toBe(true);
    expect(scaRequired('US', 'GB')).toBe(true);
    expect(scaRequired('EU', 'US')).toBe(false);
  });
});

describe('lockout ladder', () => {
  const now = new Date('2026-12-02T10:00:00Z');
  function after(n: number): LockoutState {
    let state = NO_LOCKOUT;
    for (let i = 0; i < n; i++) state = afterFailedAttempt(state, now);
    return state;
  }

  test('four failures lock nothing; 5 → 15 min, 6 → 30 min, 7 → 1 h, 8 → 24 h, 9 → suspended', () => {
    expect(isLocked(after(4), now)).toBe(false);
    expect(after(5).lockedUntil!.getTime() - now.getTime()).toBe(15 * MINUTE);
    expect(after(6).lockedUntil!.getTime() - now.getTime()).toBe(30 * MINUTE);
    expect(after(7).lockedUntil!.getTime() - now.getTime()).toBe(60 * MINUTE);
    expect(after(8).lockedUntil!.getTime() - now.getTime()).toBe(24 * 60 * MINUTE);
    expect(after(9)).toEqual({ failedAttempts: 9, suspended: true, lockedUntil: null });
    expect(isLocked(after(12), new Date(now.getTime() + 365 * 24 * 60 * MINUTE))).toBe(true);
  });

  test('a lock ends by itself; the view then shows no lockedUntil but keeps the count', () => {
    const later = new Date(now.getTime() + 16 * MINUTE);
    expect(isLocked(after(5), later)).toBe(false);
    expect(lockoutView(after(5), later)).toEqual({ failedAttempts: 5, suspended: false, lockedUntil: null });
  });
});

describe('SMS codes', () => {
  const key = Buffer.alloc(32, 7);
  test('sandbox codes are the documented one; production codes are six random digits', () => {
    expect(newScaCode('SANDBOX')).toBe(SANDBOX_SCA_CODE);
    expect(newScaCode('PRODUCTION')).toMatch(/^\d{6}$/);
  });

  test('a code is kept as a keyed hash bound to its challenge: no good for another challenge or key', () => {
    const stored = hashScaCode(key, 'ScaChallenge:a', '424242');
    expect(stored).not.toContain('424242');
    expect(scaCodeMatches(key, 'ScaChallenge:a', '424242', stored)).toBe(true);
    expect(scaCodeMatches(key, 'ScaChallenge:b', '424242', stored)).toBe(false);
    expect(scaCodeMatches(Buffer.alloc(32, 8), 'ScaChallenge:a', '424242', stored)).toBe(false);
    expect(scaCodeMatches(key, 'ScaChallenge:a', '424243', stored)).toBe(false);
    expect(scaCodeMatches(key, 'ScaChallenge:a', '424242', null)).toBe(false);
    expect(scaCodeMatches(key, 'ScaChallenge:a', '424242', 'plain$424242')).toBe(false);
  });
});

describe('TOTP (RFC 6238)', () => {
  const secret = newTotpSecret();
  const at = (iso: string) => new Date(iso);
  const codeAt = (date: Date) => generateSync({ secret, epoch: Math.floor(date.getTime() / 1000) });

  test('the current code and one step either side are accepted; further is not', () => {
    const now = at('2026-12-02T10:00:10Z');
    expect(checkTotp(secret, codeAt(now), null, now).valid).toBe(true);
    expect(checkTotp(secret, codeAt(new Date(now.getTime() - 30_000)), null, now).valid).toBe(true);
    expect(checkTotp(secret, codeAt(new Date(now.getTime() + 30_000)), null, now).valid).toBe(true);
    expect(checkTotp(secret, codeAt(new Date(now.getTime() - 90_000)), null, now)).toEqual({ valid: false, reused: false });
  });

  test('a code of a step already used is refused as reused, and a later step still works', () => {
    const now = at('2026-12-02T10:00:10Z');
    const first = checkTotp(secret, codeAt(now), null, now);
    expect(first.valid).toBe(true);
    const step = (first as { timeStep: number }).timeStep;
    expect(checkTotp(secret, codeAt(now), step, now)).toEqual({ valid: false, reused: true });
    const next = new Date(now.getTime() + 30_000);
    expect(checkTotp(secret, codeAt(next), step, next).valid).toBe(true);
  });

  test('anything but six digits is wrong; the URI carries the secret for the app', () => {
    expect(checkTotp(secret, '12345', null, new Date()).valid).toBe(false);
    expect(checkTotp(secret, 'abcdef', null, new Date()).valid).toBe(false);
    expect(totpUri(secret, 'Acme', 'ada@example.com')).toMatch(new RegExp(`^otpauth://totp/Acme:ada%40example.com\\?.*secret=${secret}`));
  });
});

describe('recovery codes', () => {
  test('ten distinct XXXX-XXXX-XXXX codes, hashed per factor', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const key = Buffer.alloc(32, 1);
    expect(hashRecoveryCode(key, 'ScaFactor:a', codes[0]!)).not.toBe(hashRecoveryCode(key, 'ScaFactor:b', codes[0]!));
    expect(hashRecoveryCode(key, 'ScaFactor:a', codes[0]!)).not.toContain(codes[0]!);
  });
});

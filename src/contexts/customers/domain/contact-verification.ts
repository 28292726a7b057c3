import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../../platforms';
import type { ContactVerificationState } from '../entities/Customer';
import { CONTACT_VERIFICATION_REGIONS, contactRegionOf, contactVerificationRequired } from '../../../domain/provider-regions';

/**
 * Contact verification (spec §1, §7): in regulated regions the payment provider verifies a
 * customer's email and phone by one-time codes before KYC. These are the pure rules; the
 * persistence lives in src/services/contact-verification.ts.
 */

export { CONTACT_VERIFICATION_REGIONS, contactRegionOf, contactVerificationRequired };

export type ContactChannel = 'email' | 'phone';
export const CONTACT_CHANNELS: readonly ContactChannel[] = ['email', 'phone'];

/** The code that is always valid with a sandbox token (no email or SMS is sent there). */
export const SANDBOX_CONTACT_CODE = '123456';
export const CONTACT_CODE_TTL_MS = 10 * 60 * 1000;
/** Wrong attempts a code survives; the last one burns it. */
export const MAX_CONTACT_CODE_ATTEMPTS = 5;

export interface Contacts {
  email?: string | null;
  phoneNumber?: string | null;
}

export function contactOf(contacts: Contacts, channel: ContactChannel): string | null {
  const value = channel === 'email' ? contacts.email : contacts.phoneNumber;
  return value ? value : null;
}

/**
 * The state a new customer starts with: null where the provider does not verify contacts,
 * otherwise one PENDING entry per contact on file (an empty object when there is none yet).
 */
export function initialContactVerification(platformRegion: string, contacts: Contacts): ContactVerificationState | null {
  return reconcileContactVerification(platformRegion, null, contacts);
}

/**
 * The state after a change: channels whose contact is gone disappear, new contacts start
 * PENDING, and a channel listed in `changed` (its contact was replaced) goes back to PENDING.
 * Everything else keeps its status.
 */
export function reconcileContactVerification(
  platformRegion: string,
  current: ContactVerificationState | null | undefined,
  contacts: Contacts,
  changed: readonly ContactChannel[] = [],
): ContactVerificationState | null {
  if (!contactVerificationRequired(platformRegion)) return null;
  const next: ContactVerificationState = {};
  for (const channel of CONTACT_CHANNELS) {
    if (!contactOf(contacts, channel)) continue;
    const status = current?.[channel];
    next[channel] = status && !changed.includes(channel) ? status : 'PENDING';
  }
  return next;
}

/** A fresh six-digit code; in the sandbox always the documented one. */
export function newContactCode(environment: Environment): string {
  if (environment === 'SANDBOX') return SANDBOX_CONTACT_CODE;
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

const HASH_SCHEME = 'hmac-sha256';

/**
 * Keyed hash of a code, bound to the code row's id: six digits are too few for a plain hash,
 * so without the master key a copy of the table reveals nothing.
 */
export function hashContactCode(key: Buffer, codeId: string, code: string): string {
  const mac = createHmac('sha256', key).update(`contact-verification-code\u0000${codeId}\u0000${code}`).digest('base64url');
  return `${HASH_SCHEME}$${mac}`;
}

export function contactCodeMatches(key: Buffer, codeId: string, code: string, stored: string): boolean {
  const expected = Buffer.from(stored, 'utf8');
  const actual = Buffer.from(hashContactCode(key, codeId, code), 'utf8');
  // A corrupt or foreign-scheme row fails closed.
  if (!stored.startsWith(`${HASH_SCHEME}$`) || expected.length !== actual.length) return false;
  return timingSafeEqual(expected, actual);
}

export interface PendingCode {
  expiresAt: Date;
  attempts: number;
  consumedAt?: Date | null;
}

export type CodeAttemptOutcome =
  | { outcome: 'VERIFIED' }
  | { outcome: 'WRONG'; attemptsLeft: number }
  | { outcome: 'EXPIRED' }
  | { outcome: 'ATTEMPTS_EXCEEDED' }
  | { outcome: 'NOT_REQUESTED' };

/**
 * Judges one confirmation attempt. A used code counts as not requested, a burned one stays
 * burned, an expired one is expired even when the digits are right; a wrong attempt uses up
 * one of MAX_CONTACT_CODE_ATTEMPTS.
 */
export function judgeCodeAttempt(code: PendingCode | null, now: Date, matches: boolean): CodeAttemptOutcome {
  if (!code || code.consumedAt) return { outcome: 'NOT_REQUESTED' };
  if (code.attempts >= MAX_CONTACT_CODE_ATTEMPTS) return { outcome: 'ATTEMPTS_EXCEEDED' };
  if (now.getTime() >= code.expiresAt.getTime()) return { outcome: 'EXPIRED' };
  if (matches) return { outcome: 'VERIFIED' };
  return { outcome: 'WRONG', attemptsLeft: MAX_CONTACT_CODE_ATTEMPTS - code.attempts - 1 };
}

/** The field error (`details.errors[]` entry on `code`) for an attempt that failed. */
export function codeAttemptError(
  result: Exclude<CodeAttemptOutcome, { outcome: 'VERIFIED' }>,
  channel: ContactChannel,
): { reason: string; constraint: string; message: string } {
  const send = `POST /customers/{customerId}/verify-${channel}`;
  switch (result.outcome) {
    case 'WRONG':
      return result.attemptsLeft > 0
        ? {
            reason: 'The verification code is not correct',
            constraint: 'invalid',
            message: `the code is not correct; ${result.attemptsLeft} attempt${result.attemptsLeft === 1 ? '' : 's'} left`,
          }
        : {
            reason: 'The verification code is not correct',
            constraint: 'invalid',
            message: `the code is not correct and has now been withdrawn after ${MAX_CONTACT_CODE_ATTEMPTS} wrong attempts; request a new one with ${send}`,
          };
    case 'EXPIRED':
      return { reason: 'The verification code has expired', constraint: 'expired', message: `the code has expired; request a new one with ${send}` };
    case 'ATTEMPTS_EXCEEDED':
      return {
        reason: 'Too many wrong attempts for this verification code',
        constraint: 'attempts_exceeded',
        message: `the code was withdrawn after ${MAX_CONTACT_CODE_ATTEMPTS} wrong attempts; request a new one with ${send}`,
      };
    case 'NOT_REQUESTED':
      return {
        reason: 'No verification code is pending',
        constraint: 'not_requested',
        message: `no code is pending for this ${channel === 'email' ? 'email address' : 'phone number'}; request one with ${send}`,
      };
  }
}

/**
 * Phone numbers in the international format of ITU-T Recommendation E.164: a `+`, a country
 * calling code (which never starts with 0) and the national number, at most 15 digits in all.
 * E.164 sets no minimum; 7 digits is the shortest in practical use and is required here. The
 * per-currency patterns are those of the mobile-money rails for each country's numbering plan.
 */
import { accepted, refused, type IdentifierCheck } from './check';

/** Any E.164 number: `+` and 7 to 15 digits, the first not 0. */
export const E164_PATTERN = /^\+[1-9][0-9]{6,14}$/;

/** The mobile-money currencies this module knows a phone-number pattern for. */
export type MobileMoneyCurrency = 'KES' | 'TZS' | 'RWF' | 'ZMW' | 'IDR';

/** Mobile-money wallet numbers per currency, in E.164 form. */
export const MOBILE_MONEY_PHONE_PATTERNS: Readonly<Record<MobileMoneyCurrency, RegExp>> = {
  KES: /^\+254[0-9]{9}$/, // Kenya
  TZS: /^\+255[0-9]{9}$/, // Tanzania
  RWF: /^\+250[0-9]{9}$/, // Rwanda
  ZMW: /^\+260[0-9]{9}$/, // Zambia
  IDR: /^\+62[0-9]{9,12}$/, // Indonesia
};

/** Spaces and hyphens between digits are tolerated in input; the normalized form has neither. */
function normalizePhone(value: string): string {
  return value.trim().replace(/[ -]/g, '');
}

/**
 * Checks an E.164 phone number. `callingCodePrefix` (for example `254` or `+254`), when given, is
 * the country calling code the number must start with. The normalized form is `+` and the digits.
 */
export function checkE164(value: string, callingCodePrefix?: string): IdentifierCheck {
  const phone = normalizePhone(value);
  if (!phone.startsWith('+')) return refused('phone number must start with + and the country calling code');
  if (!/^\+[0-9]*$/.test(phone)) return refused('phone number must contain only digits after the +');
  if (phone[1] === '0') return refused('phone number country calling code cannot start with 0');
  if (!E164_PATTERN.test(phone)) return refused('phone number must have between 7 and 15 digits');
  if (callingCodePrefix !== undefined) {
    const prefix = callingCodePrefix.trim().replace(/^\+/, '');
    if (!phone.startsWith(`+${prefix}`)) return refused(`phone number must start with the calling code +${prefix}`);
  }
  return accepted(phone);
}

/** Checks a mobile-money wallet number against its currency's pattern (after the E.164 check). */
export function checkMobileMoneyPhone(value: string, currency: MobileMoneyCurrency): IdentifierCheck {
  const check = checkE164(value);
  if (!check.valid) return check;
  if (!MOBILE_MONEY_PHONE_PATTERNS[currency].test(check.normalized)) {
    return refused(`phone number does not match the ${currency} mobile-money number format`);
  }
  return accepted(check.normalized);
}

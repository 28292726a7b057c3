/**
 * UK sort codes and account numbers. The shapes come from Pay.UK (Bacs and Faster Payments): a
 * sort code is six digits, usually written in pairs as 12-34-56, and an account number is eight
 * digits. Modulus checking (Vocalink's per-bank weight tables) is not done here: it needs the
 * published data file, not a format rule.
 */
import { accepted, refused, type IdentifierCheck } from './check';

/**
 * Checks a UK sort code. `123456`, `12-34-56` and `12 34 56` are accepted (with one kind of
 * separator throughout); the normalized form is the six digits.
 */
export function checkSortCode(value: string): IdentifierCheck {
  const sortCode = value.trim();
  if (!/^[0-9 -]*$/.test(sortCode)) return refused('sort code must contain digits only, optionally in pairs separated by hyphens or spaces');
  const match = /^([0-9]{2})([- ]?)([0-9]{2})\2([0-9]{2})$/.exec(sortCode);
  if (!match) return refused('sort code must be 6 digits, written as 123456, 12-34-56 or 12 34 56');
  return accepted(match[1] + match[3] + match[4]);
}

/** Checks a UK account number: exactly eight digits, which are also its normalized form. */
export function checkUkAccountNumber(value: string): IdentifierCheck {
  const accountNumber = value.trim();
  if (!/^[0-9]*$/.test(accountNumber)) return refused('account number must contain digits only');
  if (accountNumber.length !== 8) return refused('account number must be exactly 8 digits');
  return accepted(accountNumber);
}

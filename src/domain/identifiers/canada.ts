/**
 * Canadian bank account coordinates. The shapes come from Payments Canada (Standard 006 and the
 * member directory): a 3-digit financial institution number, a 5-digit branch transit number and
 * an account number of 7 to 12 digits. No check digit is defined for any of them.
 */
import { accepted, refused, type IdentifierCheck } from './check';

function digits(value: string, name: string, min: number, max: number): IdentifierCheck {
  const number = value.trim();
  if (!/^[0-9]*$/.test(number)) return refused(`${name} must contain digits only`);
  if (number.length < min || number.length > max) {
    return refused(min === max ? `${name} must be exactly ${min} digits` : `${name} must be between ${min} and ${max} digits`);
  }
  return accepted(number);
}

/** Checks a Canadian financial institution number (3 digits, for example 001 for the Bank of Montreal). */
export function checkCanadianInstitutionNumber(value: string): IdentifierCheck {
  return digits(value, 'institution number', 3, 3);
}

/** Checks a Canadian branch transit number (5 digits). */
export function checkCanadianTransitNumber(value: string): IdentifierCheck {
  return digits(value, 'transit number', 5, 5);
}

/** Checks a Canadian bank account number (7 to 12 digits). */
export function checkCanadianAccountNumber(value: string): IdentifierCheck {
  return digits(value, 'account number', 7, 12);
}

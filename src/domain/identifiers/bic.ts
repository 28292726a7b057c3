/**
 * Business Identifier Codes (SWIFT codes). The rule comes from ISO 9362: a four-character party
 * prefix (letters here), a two-letter ISO 3166-1 country code, a two-character location code and
 * an optional three-character branch code (8 or 11 characters in all).
 */
import { isCountryCode } from '../countries';
import { accepted, refused, type IdentifierCheck } from './check';

/**
 * XK is user-assigned in ISO 3166-1, so the shared country list leaves it out, but SWIFT assigns
 * it to Kosovo and Kosovar banks' BICs carry it; it is accepted here as the one exception.
 */
function isBicCountry(code: string): boolean {
  return code === 'XK' || isCountryCode(code);
}

/** Checks a BIC; lower case is accepted, the normalized form is upper case (8 or 11 characters, as given). */
export function checkBic(value: string): IdentifierCheck {
  const input = value.trim();
  // Checked before upper-casing, which turns some non-ASCII letters into ASCII ones (ß into SS).
  if (!/^[A-Za-z0-9]*$/.test(input)) return refused('BIC must contain letters and digits only');
  const bic = input.toUpperCase();
  if (bic.length !== 8 && bic.length !== 11) return refused('BIC must be 8 or 11 characters');
  if (!/^[A-Z]{4}/.test(bic)) return refused('BIC must start with a four-letter institution code');
  if (!/^[A-Z]{2}$/.test(bic.slice(4, 6)) || !isBicCountry(bic.slice(4, 6))) {
    return refused('BIC characters 5 and 6 must be an ISO 3166-1 country code');
  }
  return accepted(bic);
}

/** The country code of a valid BIC (in any accepted input form), or null when it is not one. */
export function bicCountry(bic: string): string | null {
  const check = checkBic(bic);
  return check.valid ? check.normalized.slice(4, 6) : null;
}

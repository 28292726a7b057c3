/**
 * International Bank Account Numbers. The structure and the check digits come from ISO 13616
 * (two-letter country code, two check digits, then the country's BBAN; the whole number, with the
 * first four characters moved to the end and letters read as 10–35, is 1 modulo 97, ISO 7064
 * MOD 97-10); the length of each country's IBAN comes from the SWIFT IBAN Registry.
 */
import { accepted, refused, type IdentifierCheck } from './check';

/**
 * Total IBAN length per country of the SWIFT IBAN Registry. Dependent territories that use their
 * parent's IBAN (for example the French overseas departments under FR, Åland under FI, Jersey,
 * Guernsey and the Isle of Man under GB) carry the parent's code and are not listed. XK (Kosovo)
 * is a registry country even though its code is user-assigned in ISO 3166-1.
 */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HN: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};

/** ISO 7064 MOD 97-10 over the rearranged IBAN, digit by digit so no big integers are needed. */
function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    // '0'–'9' count as 0–9, 'A'–'Z' as 10–35 (two digits).
    const digits = code <= 57 ? code - 48 : code - 55;
    remainder = (remainder * (digits < 10 ? 10 : 100) + digits) % 97;
  }
  return remainder;
}

/**
 * Checks an IBAN. Upper or lower case and spaces are accepted in the input; the normalized form is
 * the electronic format: upper case without spaces. `expectedCountry`, when given, is the country
 * the IBAN must belong to (for example AE for an AED account, DK for DKK, EG for EGP, PK for PKR).
 */
export function checkIban(value: string, expectedCountry?: string): IdentifierCheck {
  const compact = value.trim().replace(/ /g, '');
  if (compact.length === 0) return refused('IBAN is empty');
  // Checked before upper-casing, which turns some non-ASCII letters into ASCII ones (ß into SS).
  if (!/^[A-Za-z0-9]+$/.test(compact)) return refused('IBAN may contain only letters, digits and spaces');
  const iban = compact.toUpperCase();
  if (!/^[A-Z]{2}[0-9]{2}/.test(iban)) return refused('IBAN must start with a two-letter country code and two check digits');
  const country = iban.slice(0, 2);
  const length = IBAN_LENGTHS[country];
  if (length === undefined) return refused(`IBAN country code ${country} is not in the IBAN registry`);
  if (expectedCountry !== undefined && country !== expectedCountry.trim().toUpperCase()) {
    return refused(`IBAN country is ${country}, expected ${expectedCountry.trim().toUpperCase()}`);
  }
  if (iban.length !== length) return refused(`IBAN for ${country} must be ${length} characters long`);
  const checkDigits = iban.slice(2, 4);
  // ISO 13616 check digits run from 02 to 98: 00, 01 and 99 are never issued.
  if (checkDigits === '00' || checkDigits === '01' || checkDigits === '99') return refused('IBAN check digits must be between 02 and 98');
  if (mod97(iban) !== 1) return refused('IBAN checksum does not match');
  return accepted(iban);
}

/** The country code of a valid IBAN (in any accepted input form), or null when it is not one. */
export function ibanCountry(iban: string): string | null {
  const check = checkIban(iban);
  return check.valid ? check.normalized.slice(0, 2) : null;
}

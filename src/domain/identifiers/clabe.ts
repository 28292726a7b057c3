/**
 * CLABE (Clave Bancaria Estandarizada), the 18-digit account number of Mexico's SPEI. The rule
 * comes from Banco de México's CLABE specification: 3 digits of bank, 3 of plaza, 11 of account and
 * a check digit computed with the weights 3, 7, 1 repeated over the first 17 digits.
 */
import { accepted, refused, type IdentifierCheck } from './check';

const WEIGHTS = [3, 7, 1];

/** Checks a CLABE; the normalized form is its 18 digits. */
export function checkClabe(value: string): IdentifierCheck {
  const clabe = value.trim();
  if (!/^[0-9]*$/.test(clabe)) return refused('CLABE must contain digits only');
  if (clabe.length !== 18) return refused('CLABE must be exactly 18 digits');
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (WEIGHTS[i % 3] * Number(clabe[i])) % 10;
  const checkDigit = (10 - (sum % 10)) % 10;
  if (checkDigit !== Number(clabe[17])) return refused('CLABE check digit does not match');
  return accepted(clabe);
}

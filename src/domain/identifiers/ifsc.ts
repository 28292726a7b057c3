/**
 * Indian Financial System Code, the branch identifier of NEFT, RTGS and IMPS. The rule comes from
 * the Reserve Bank of India: 11 characters, four letters of bank code, a fifth character kept as
 * 0, and six letters or digits for the branch.
 */
import { accepted, refused, type IdentifierCheck } from './check';

/** Checks an IFSC; lower case is accepted, the normalized form is upper case. */
export function checkIfsc(value: string): IdentifierCheck {
  const input = value.trim();
  // Checked before upper-casing, which turns some non-ASCII letters into ASCII ones (ß into SS).
  if (!/^[A-Za-z0-9]*$/.test(input)) return refused('IFSC must contain letters and digits only');
  const ifsc = input.toUpperCase();
  if (ifsc.length !== 11) return refused('IFSC must be exactly 11 characters');
  if (!/^[A-Z]{4}/.test(ifsc)) return refused('IFSC must start with a four-letter bank code');
  if (ifsc[4] !== '0') return refused('IFSC fifth character must be 0');
  return accepted(ifsc);
}

/**
 * UPI virtual payment addresses (VPAs, "UPI IDs"). The shape comes from NPCI's UPI specification
 * as applied by payment service providers: a handle of letters, digits, dots, hyphens and
 * underscores, `@`, and the PSP's alphanumeric suffix, 3 to 255 characters in all.
 */
import { accepted, refused, type IdentifierCheck } from './check';

const VPA = /^[a-zA-Z0-9.\-_]+@[a-zA-Z0-9]+$/;

/**
 * Checks a UPI VPA. The normalized form is the address as given (surrounding spaces removed): the
 * rail resolves it, so its case is left to the PSP.
 */
export function checkUpiVpa(value: string): IdentifierCheck {
  const vpa = value.trim();
  if (vpa.length < 3 || vpa.length > 255) return refused('UPI address must be between 3 and 255 characters');
  if (!VPA.test(vpa)) {
    return refused('UPI address must be a handle of letters, digits, dots, hyphens or underscores, @, and a letters-and-digits provider suffix');
  }
  return accepted(vpa);
}

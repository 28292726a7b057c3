/**
 * ABA routing transit numbers (US). The rule comes from the American Bankers Association's routing
 * number policy and the Federal Reserve's routing number structure: nine digits, the first two
 * naming the Federal Reserve district or kind of institution, and a check digit so that
 * 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a multiple of 10.
 */
import { accepted, refused, type IdentifierCheck } from './check';

/**
 * Ranges the first two digits may fall in:
 * - 01–12: Federal Reserve districts (commercial banks);
 * - 21–32: the same districts + 20 (thrift institutions);
 * - 61–72: the same districts + 60 (electronic-only, ACH);
 * - 80: traveller's cheques.
 *
 * 00 (the United States government) is refused on purpose: those numbers identify Treasury
 * check-processing points, not accounts a payment can be sent to, and refusing the range also
 * rules out the placeholder 000000000, whose checksum happens to pass.
 */
function isAssignedPrefix(prefix: number): boolean {
  return (prefix >= 1 && prefix <= 12) || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80;
}

const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1];

/** Checks a US ABA routing number; the normalized form is its nine digits. */
export function checkAbaRoutingNumber(value: string): IdentifierCheck {
  const routingNumber = value.trim();
  if (!/^[0-9]*$/.test(routingNumber)) return refused('routing number must contain digits only');
  if (routingNumber.length !== 9) return refused('routing number must be exactly 9 digits');
  if (!isAssignedPrefix(Number(routingNumber.slice(0, 2)))) {
    return refused('routing number does not start with a Federal Reserve routing symbol (01–12, 21–32, 61–72 or 80)');
  }
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += WEIGHTS[i] * Number(routingNumber[i]);
  if (sum % 10 !== 0) return refused('routing number checksum does not match');
  return accepted(routingNumber);
}

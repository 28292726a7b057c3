/**
 * E-mail addresses, in the pragmatic shape of RFC 5321 / RFC 5322: a dot-atom local part of at
 * most 64 characters, `@`, and a domain name of dot-separated labels (RFC 1035: letters, digits
 * and inner hyphens, 1–63 characters each), 254 characters at most in all (RFC 5321's path limit
 * less its angle brackets). Quoted local parts, comments and address literals, legal but unused
 * for payments, are refused, as are non-ASCII characters (internationalized domains are accepted
 * in their xn-- form).
 */
import { accepted, refused, type IdentifierCheck } from './check';

/** RFC 5322 `atext`: the characters a dot-atom may use between its dots. */
const LOCAL_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * Checks an e-mail address. The normalized form keeps the local part as written (it may be case
 * sensitive) and puts the domain, which is not, in lower case.
 */
export function checkEmailAddress(value: string): IdentifierCheck {
  const address = value.trim();
  if (address.length > 254) return refused('e-mail address must be at most 254 characters');
  const at = address.lastIndexOf('@');
  if (at < 0) return refused('e-mail address must contain @');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length === 0) return refused('e-mail address local part is empty');
  if (local.length > 64) return refused('e-mail address local part must be at most 64 characters');
  if (!local.split('.').every((atom) => LOCAL_ATOM.test(atom))) {
    return refused('e-mail address local part has a character that is not allowed or a misplaced dot');
  }
  if (domain.length === 0) return refused('e-mail address domain is empty');
  const labels = domain.split('.');
  if (labels.length < 2) return refused('e-mail address domain must have at least two labels');
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) {
    return refused('e-mail address domain has an empty or malformed label');
  }
  if (/^[0-9]+$/.test(labels[labels.length - 1])) return refused('e-mail address top-level domain cannot be numeric');
  return accepted(`${local}@${domain.toLowerCase()}`);
}

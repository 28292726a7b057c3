// UMA addresses: shared by the contexts that read them (customers, payments' lookups, invitations).

const UMA_LOCAL = '[a-z0-9](?:[a-z0-9._+-]{0,62}[a-z0-9])?';
const DNS_LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** `$user@domain`: a user part of letters, digits, `.`, `_`, `+`, `-` (≤ 64) and a dotted host name. */
export const UMA_ADDRESS = new RegExp(`^\\$${UMA_LOCAL}@${DNS_LABEL}(?:\\.${DNS_LABEL})+$`, 'i');
export const MAX_UMA_ADDRESS = 255;

export function isUmaAddress(value: unknown): boolean {
  return typeof value === 'string' && value.length <= MAX_UMA_ADDRESS && UMA_ADDRESS.test(value);
}

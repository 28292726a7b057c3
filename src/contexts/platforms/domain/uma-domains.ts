import { createHash } from 'node:crypto';

/**
 * UMA domains. A domain belongs to one platform (first come; the database holds the rule with a
 * unique index on lower(uma_domain)), and its customers' UMA addresses are on it. A platform that
 * has not set one uses its default domain, a subdomain of DEFAULT_UMA_ROOT derived from its id:
 * defaults of two platforms never collide, and no platform can set a domain under the root.
 */

const DNS_LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** A dotted host name (two labels at least), compared without regard to letter case. */
export const UMA_DOMAIN = new RegExp(`^${DNS_LABEL}(?:\\.${DNS_LABEL})+$`, 'i');
export const MAX_UMA_DOMAIN = 253;

/** The service's own domain: the default domains of platforms are its subdomains. */
export const DEFAULT_UMA_ROOT = 'sandbox.uma.local';

/** Asks createPlatform to store the platform's default domain as its umaDomain. */
export const OWN_DEFAULT_UMA_DOMAIN = 'default';

export function isUmaDomain(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_UMA_DOMAIN && UMA_DOMAIN.test(value);
}

/** `<label>.sandbox.uma.local`, the label being the platform id's UUID (a digest for other ids). */
export function defaultUmaDomain(platformId: string): string {
  const local = platformId.slice(platformId.indexOf(':') + 1).toLowerCase();
  const label = new RegExp(`^${DNS_LABEL}$`).test(local) ? local : createHash('sha256').update(platformId).digest('hex').slice(0, 32);
  return `${label}.${DEFAULT_UMA_ROOT}`;
}

/** The domain the platform's customers' addresses are on. */
export function umaDomainOf(platform: { id: string; umaDomain?: string | null }): string {
  return platform.umaDomain ?? defaultUmaDomain(platform.id);
}

export function sameUmaDomain(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

/** The root itself and every domain under it belong to the service (a platform may name its own default). */
export function isReservedUmaDomain(domain: string, platformId: string): boolean {
  const d = domain.toLowerCase();
  const reserved = d === DEFAULT_UMA_ROOT || d.endsWith(`.${DEFAULT_UMA_ROOT}`);
  return reserved && d !== defaultUmaDomain(platformId);
}

/** The host part of a UMA address (`$user@domain`). */
export function domainOfUmaAddress(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

/** Whether an address is on the platform's domain. */
export function isOnPlatformDomain(address: string, platform: { id: string; umaDomain?: string | null }): boolean {
  return sameUmaDomain(domainOfUmaAddress(address), umaDomainOf(platform));
}

/**
 * Whether an address is on one of the platform's own domains: its current one, or its default (the
 * customers there keep their addresses when it takes a domain of its own). An address kept from
 * before domains were owned may be on neither: it would speak for another platform's users.
 */
export function isOnOwnUmaDomain(address: string, platform: { id: string; umaDomain?: string | null }): boolean {
  return isOnPlatformDomain(address, platform) || sameUmaDomain(domainOfUmaAddress(address), defaultUmaDomain(platform.id));
}

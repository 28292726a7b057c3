import { isIP } from 'node:net';
import { ipv4Bytes, ipv6Bytes } from '../../../security/ip-address';

/**
 * Where webhooks may go (docs/webhooks.md: destination policy). A webhook endpoint is a URL the
 * platform chooses and the service connects to, so it must not reach the service's own network:
 * production needs https, and no address connected to may be loopback, private, link-local,
 * CGNAT, multicast, unspecified or reserved, in any spelling (IPv4-mapped, IPv4-compatible,
 * NAT64 and 6to4 forms are judged by the IPv4 address inside). The sandbox may allow loopback
 * receivers for local development when the operator says so; never anything else.
 */
export interface DestinationRules {
  environment: 'SANDBOX' | 'PRODUCTION';
  /** Operator setting WEBHOOK_ALLOW_LOOPBACK: loopback receivers for sandbox deliveries. */
  allowLoopback: boolean;
}

export type AddressCategory = 'public' | 'loopback' | 'private' | 'linkLocal' | 'sharedCgnat' | 'multicast' | 'unspecified' | 'reserved';

/** The message given for any refused destination: the same whatever the reason, so it reveals nothing about the target. */
export const DESTINATION_REFUSED = 'the webhook destination policy does not allow this destination';

type Range = [base: number[], prefixBits: number, category: AddressCategory];

const V4_RANGES: Range[] = [
  [[0, 0, 0, 0], 8, 'unspecified'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'sharedCgnat'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'linkLocal'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'], // IETF protocol assignments
  [[192, 0, 2, 0], 24, 'reserved'], // documentation
  [[192, 88, 99, 0], 24, 'reserved'], // 6to4 relay anycast
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'reserved'], // benchmarking
  [[198, 51, 100, 0], 24, 'reserved'],
  [[203, 0, 113, 0], 24, 'reserved'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved'], // includes 255.255.255.255
];

const V6_RANGES: Range[] = [
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, 'reserved'], // discard-only 100::/64
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, 'private'], // local-use NAT64 64:ff9b:1::/48
  [[0x20, 0x01, 0x00, 0x00], 32, 'reserved'], // Teredo: the IPv4 inside is obfuscated
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'reserved'], // documentation
  [[0xfc], 7, 'private'], // unique local
  [[0xfe, 0x80], 10, 'linkLocal'],
  [[0xfe, 0xc0], 10, 'private'], // deprecated site-local
  [[0xff], 8, 'multicast'],
];

function inRange(bytes: number[], base: number[], prefixBits: number): boolean {
  for (let bit = 0; bit < prefixBits; bit++) {
    const mask = 0x80 >> (bit % 8);
    if (((bytes[bit >> 3] ?? 0) & mask) !== ((base[bit >> 3] ?? 0) & mask)) return false;
  }
  return true;
}

function categoryOfV4(bytes: number[]): AddressCategory {
  return V4_RANGES.find(([base, bits]) => inRange(bytes, base, bits))?.[2] ?? 'public';
}

/** What kind of address this is; anything that is not a valid IP address is 'reserved'. */
export function addressCategory(address: string): AddressCategory {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare.split('%')[0]!);
  if (family === 4) return categoryOfV4(ipv4Bytes(bare));
  if (family !== 6) return 'reserved';
  const bytes = ipv6Bytes(bare);
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 16)) return 'unspecified';
  if (zeros(0, 15) && bytes[15] === 1) return 'loopback';
  const embedded = bytes.slice(12, 16);
  // IPv4-mapped ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d.
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return categoryOfV4(embedded);
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) return categoryOfV4(embedded);
  if (zeros(0, 12)) return categoryOfV4(embedded);
  if (inRange(bytes, [0x00, 0x64, 0xff, 0x9b], 96)) return categoryOfV4(embedded);
  // 6to4 2002:a.b.c.d::/48 reaches the IPv4 address inside.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return categoryOfV4(bytes.slice(2, 6));
  return V6_RANGES.find(([base, bits]) => inRange(bytes, base, bits))?.[2] ?? 'public';
}

/** Null when a connection to this address is allowed, else why not (for logs and tests; callers answer DESTINATION_REFUSED). */
export function addressRefusal(address: string, rules: DestinationRules): string | null {
  const category = addressCategory(address);
  if (category === 'public') return null;
  if (category === 'loopback' && rules.environment === 'SANDBOX' && rules.allowLoopback) return null;
  return `${category} address`;
}

/** `localhost` and its subdomains resolve to loopback by definition (RFC 6761). */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Null when the URL may be set as a webhook endpoint, else why not. Judges what the URL says
 * (scheme, an address written in it in any form the URL parser accepts, localhost); addresses a
 * host name resolves to are judged at every connection, since DNS answers change.
 */
export function endpointRefusal(url: string, rules: DestinationRules): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && rules.environment === 'SANDBOX')) {
    return rules.environment === 'PRODUCTION' ? 'production webhook endpoints must use https' : 'webhook endpoints must use http or https';
  }
  if (parsed.username || parsed.password) return 'credentials in the URL are not allowed';
  // The WHATWG parser already turned 2130706433, 0x7f000001 and 0177.0.0.1 into 127.0.0.1.
  const host = parsed.hostname;
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (isIP(literal) !== 0) {
    const refusal = addressRefusal(literal, rules);
    return refusal && `the host is a ${refusal}`;
  }
  if (isLocalhostName(host)) {
    const refusal = addressRefusal('127.0.0.1', rules);
    return refusal && 'the host is a loopback name';
  }
  return null;
}

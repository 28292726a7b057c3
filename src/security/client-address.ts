import { isIPv6 } from 'node:net';
import { ipv6Bytes } from './ip-address';

/**
 * The unit failures are counted by: an IPv4 address (IPv4-mapped IPv6 included) as itself, an
 * IPv6 address by its /64 prefix, since one subscriber is usually given a whole /64 and could
 * otherwise start afresh from each of its 2^64 addresses.
 */
export function throttledAddress(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const bytes = ipv6Bytes(address);
  const groups = [0, 2, 4, 6].map((i) => ((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${groups.join(':')}::/64`;
}

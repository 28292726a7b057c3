import { isIPv6 } from 'node:net';

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
  const [head, tail] = address.split('::') as [string, string | undefined];
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import { addressRefusal, type DestinationRules } from '../../src/contexts/webhooks/domain/destination-policy';

/** Every address a host name resolves to (all families, as the resolver orders them). */
export type Resolve = (hostname: string) => Promise<string[]>;
/** Null when a connection to the address is allowed, else why not. */
export type AddressPolicy = (address: string, rules: DestinationRules) => string | null;

export const systemResolve: Resolve = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** A connection the destination policy refused; nothing was connected to. */
export class DestinationRefusedError extends Error {
  override name = 'DestinationRefusedError';
}

/**
 * The addresses to connect to, in the resolver's order: the host resolved once, here, and every
 * address it resolves to judged (one refused address refuses the host), so that what is
 * connected to is what was judged — a second DNS answer (rebinding) is never asked for.
 */
export async function allowedAddresses(
  hostname: string,
  rules: DestinationRules,
  resolve: Resolve = systemResolve,
  policy: AddressPolicy = addressRefusal,
): Promise<string[]> {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const addresses = isIP(bare) !== 0 ? [bare] : await resolve(bare);
  if (addresses.length === 0) throw new DestinationRefusedError(`${hostname} resolves to no address`);
  for (const address of addresses) {
    const refusal = policy(address, rules);
    if (refusal) throw new DestinationRefusedError(`${hostname} resolves to a ${refusal}`);
  }
  return addresses;
}

/**
 * An undici connector that connects only to allowed addresses, trying them in turn (a host with
 * an IPv6 address is still reached from a network without IPv6); the TLS name stays the URL's host.
 */
export function guardedConnector(
  rules: DestinationRules,
  resolve: Resolve = systemResolve,
  policy: AddressPolicy = addressRefusal,
  tls: { ca?: string } = {},
): buildConnector.connector {
  const connect = buildConnector(tls.ca ? { ca: tls.ca } : {});
  return (options, callback) => {
    const host = options.hostname.startsWith('[') ? options.hostname.slice(1, -1) : options.hostname;
    const servername = options.protocol === 'https:' && isIP(host) === 0 ? (options.servername ?? host) : options.servername;
    allowedAddresses(host, rules, resolve, policy).then(
      (addresses) => {
        const attempt = (i: number) =>
          connect({ ...options, hostname: addresses[i]!, ...(servername ? { servername } : {}) }, (...result: buildConnector.CallbackArgs) => {
            if (result[0] && i + 1 < addresses.length) attempt(i + 1);
            else callback(...result);
          });
        attempt(0);
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  };
}

/**
 * The one place that tells a PostgreSQL out of reach from any other database failure. The failure
 * can come straight from `pg` or wrapped by MikroORM (a DriverException copies the driver error's
 * `code`), by a caller (`cause`), or gathered (an AggregateError of one refusal per address).
 */

/** The socket could not be opened or was cut: the server is down, restarting or unreachable. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server that will not serve now: class 08 (connection exception) and
 * 57P01–57P03 (admin shutdown, crash shutdown, cannot connect now: starting up or in recovery).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123])$/;

/** What `pg` and `pg-pool` say when a connection ends under a query, or none could be had in time. */
const LOST_CONNECTION =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable)$/;

export function databaseOutOfReach(err: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [err];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (!(next instanceof Error) || seen.has(next)) continue;
    seen.add(next);
    const code = (next as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    if (LOST_CONNECTION.test(next.message)) return true;
    pending.push(next.cause);
    const gathered = (next as { errors?: unknown }).errors;
    if (Array.isArray(gathered)) pending.push(...(gathered as unknown[]));
  }
  return false;
}

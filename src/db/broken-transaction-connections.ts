import { sqlOf } from './sql-text';

/**
 * Kysely (under MikroORM) leaks a pooled connection when the statement that opens or ends a
 * transaction fails: a `begin`, `commit` or `rollback` that throws skips its release, so the `pg`
 * client stays checked out for good. When the connection is dead (reset mid-commit, PostgreSQL
 * restarted), the commit and the rollback that follows both throw; a few bursts of resets leak
 * enough of them to fill the pool, and every later query of the process waits for a connection
 * that never comes (CI's cluster campaign, seed 2087382669: a worker with 10 of 10 clients checked
 * out, all dead, and 566 waiting, 20 minutes on). This hands such a client back to the pool as
 * broken (the pool closes it and frees its slot) and makes the holder's own release, if it ever
 * comes, do nothing. A failure on a live connection (a serialization failure at commit) is left
 * to Kysely: its rollback succeeds and releases the client.
 */
export function releaseBrokenTransactionConnections(pool: AnnouncingPool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const result = query(...args);
      if (!isPromise(result) || !opensOrEndsTransaction(sqlOf(args[0]))) return result;
      return result.catch((err: unknown) => {
        if (client._queryable === false || client._ending === true) discard(client, err);
        throw err;
      });
    }) as PooledClient['query'];
  });
}

/** `begin`/`start transaction`, `commit`, `rollback` (not `rollback to savepoint`): the statements whose failure Kysely does not release. */
export function opensOrEndsTransaction(sql: string): boolean {
  const statement = sql.trimStart().toLowerCase();
  if (statement.startsWith('rollback')) return !/^rollback\s+to\b/.test(statement);
  return statement.startsWith('begin') || statement.startsWith('start transaction') || statement.startsWith('commit');
}

function discard(client: PooledClient, err: unknown): void {
  const release = client.release;
  if (typeof release !== 'function') return;
  client.release = () => undefined;
  release(err instanceof Error ? err : new Error(String(err)));
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function' && typeof (value as { catch?: unknown }).catch === 'function';
}

/** The part of a checked-out `pg` client this needs; `_queryable` and `_ending` are what `pg-pool` itself reads to drop a dead client. */
interface PooledClient {
  query: (...args: never[]) => unknown;
  release?: (err?: Error) => void;
  _queryable?: boolean;
  _ending?: boolean;
}

/** The part of a `pg` pool this needs: it announces every new connection. */
interface AnnouncingPool {
  on(event: 'connect', listener: (client: PooledClient) => void): unknown;
}

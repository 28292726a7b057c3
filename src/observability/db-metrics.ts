import { Counter, type Registry } from 'prom-client';
import { sqlOf } from '../db/sql-text';

/**
 * What a process asks of PostgreSQL: every statement it sends and every database transaction it
 * ends, counted where MikroORM hands them to the `pg` driver, so ORM reads, flushes, query
 * builders and raw SQL are all seen, and nothing else is.
 */
export interface DbMetrics {
  /** SQL statements sent, transaction control (begin, commit, rollback, savepoints) excepted. */
  statements: Counter;
  /** Database transactions ended, by outcome (commit, rollback); each one also cost a `begin` and its end. */
  transactions: Counter<'outcome'>;
}

export function createDbMetrics(registry: Registry): DbMetrics {
  return {
    statements: new Counter({
      name: 'payments_db_statements_total',
      help: 'SQL statements sent to PostgreSQL, transaction control (begin, commit, rollback, savepoints) excepted',
      registers: [registry],
    }),
    transactions: new Counter({
      name: 'payments_db_transactions_total',
      help: 'Database transactions ended, by outcome (commit, rollback)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}

type StatementKind = 'statement' | 'commit' | 'rollback' | 'control';

/** What a statement is, from its first word (the driver sends `begin`, `commit`, `rollback`, `savepoint …`, `release …`, `rollback to …`). */
export function statementKind(sql: string): StatementKind {
  const head = sql.trimStart().slice(0, 12).toLowerCase();
  if (head.startsWith('commit')) return 'commit';
  if (head.startsWith('rollback')) return /^rollback\s+to/.test(sql.trimStart().toLowerCase()) ? 'control' : 'rollback';
  if (head.startsWith('begin') || head.startsWith('start transa') || head.startsWith('savepoint') || head.startsWith('release')) return 'control';
  return 'statement';
}

/** The part of a `pg` client this needs: every query goes through `query`. */
interface QueryingClient {
  query: (...args: never[]) => unknown;
}

/** The part of a `pg` pool this needs: it announces every new connection. */
interface AnnouncingPool {
  on(event: 'connect', listener: (client: QueryingClient) => void): unknown;
}

/**
 * Counts what goes through the pool's connections: each new connection's `query` is wrapped once
 * (one string check per statement, nothing measurable beside a round trip to the database).
 */
export function countDbWork(pool: AnnouncingPool, metrics: DbMetrics): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const kind = statementKind(sqlOf(args[0]));
      if (kind === 'statement') metrics.statements.inc();
      else if (kind !== 'control') metrics.transactions.inc({ outcome: kind });
      return query(...args);
    }) as QueryingClient['query'];
  });
}

import { Registry } from 'prom-client';
import { createWorkerMetrics } from '../../activities/metrics';
import { createApiMetrics } from '../../src/api/metrics';
import { openOrm } from '../../src/db/orm';
import { statementKind, type DbMetrics } from '../../src/observability/db-metrics';

const total = async (metrics: DbMetrics) => ({
  statements: (await metrics.statements.get()).values.reduce((s, v) => s + v.value, 0),
  commits: (await metrics.transactions.get()).values.find((v) => v.labels.outcome === 'commit')?.value ?? 0,
  rollbacks: (await metrics.transactions.get()).values.find((v) => v.labels.outcome === 'rollback')?.value ?? 0,
});

describe('database statements and transactions are counted where the ORM meets the driver', () => {
  test('reads, flushes, raw SQL and transactions: each statement once, each transaction by how it ended', async () => {
    const metrics = createApiMetrics(new Registry());
    const orm = await openOrm(process.env.DATABASE_URL!, { poolMax: 2, dbMetrics: metrics.db });
    try {
      // The ORM's first query checks that the database exists: not part of what is measured here.
      await orm.em.getConnection().execute('select 0');
      const before = await total(metrics.db);
      await orm.em.getConnection().execute('select 1');
      await orm.em.fork().transactional(async (tx) => {
        await tx.getConnection().execute('select 1', [], 'all', tx.getTransactionContext());
        await tx.getConnection().execute('select 2', [], 'all', tx.getTransactionContext());
      });
      await expect(
        orm.em.fork().transactional(async (tx) => {
          await tx.getConnection().execute('select 3', [], 'all', tx.getTransactionContext());
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      const after = await total(metrics.db);
      // begin, commit and rollback are not statements: they show as transactions.
      expect({
        statements: after.statements - before.statements,
        commits: after.commits - before.commits,
        rollbacks: after.rollbacks - before.rollbacks,
      }).toEqual({ statements: 4, commits: 1, rollbacks: 1 });
    } finally {
      await orm.close();
    }
  });

  test("both processes' registries serve the counters", async () => {
    for (const registry of [createApiMetrics(new Registry()).registry, createWorkerMetrics(new Registry()).registry]) {
      const text = await registry.metrics();
      expect(text).toContain('# TYPE payments_db_statements_total counter');
      expect(text).toContain('# TYPE payments_db_transactions_total counter');
    }
  });

  test('transaction control is told from statements by its first word', () => {
    expect(
      ['begin', 'start transaction isolation level serializable', 'savepoint "trx1"', 'release savepoint "trx1"', 'rollback to savepoint "trx1"'].map(
        statementKind,
      ),
    ).toEqual(['control', 'control', 'control', 'control', 'control']);
    expect(['commit', 'rollback', '  select 1', 'insert into x values (1)', 'with a as (select 1) select * from a'].map(statementKind)).toEqual([
      'commit',
      'rollback',
      'statement',
      'statement',
      'statement',
    ]);
  });
});

import type { MikroORM } from '@mikro-orm/postgresql';
import { opensOrEndsTransaction } from '../../src/db/broken-transaction-connections';
import { openOrm } from '../../src/db/orm';

test('the statements that open or end a transaction are told from the rest', () => {
  for (const sql of ['begin', 'start transaction isolation level serializable', 'commit', 'rollback', '  COMMIT'])
    expect(opensOrEndsTransaction(sql)).toBe(true);
  for (const sql of ['rollback to savepoint trx1', 'savepoint trx1', 'release savepoint trx1', 'select 1', 'update quotes set status = $1'])
    expect(opensOrEndsTransaction(sql)).toBe(false);
});

describe('a pooled connection that dies inside a transaction', () => {
  let orm: MikroORM;
  let killer: MikroORM;
  beforeAll(async () => {
    orm = await openOrm(process.env.DATABASE_URL!, { poolMax: 2 });
    killer = await openOrm(process.env.DATABASE_URL!, { poolMax: 1 });
  });
  afterAll(async () => {
    // A pool with leaked connections never finishes closing (it waits for them): bounded, so a failure reads as one.
    const closing = Promise.all([orm?.close(true), killer?.close(true)]);
    await Promise.race([closing, new Promise((late) => setTimeout(late, 3_000).unref())]);
  });

  test('is given back to the pool when its commit fails: more such deaths than the pool holds, and the next query still runs', async () => {
    for (let death = 0; death < 3; death++) {
      const work = orm.em.fork().transactional(async (tx) => {
        const [row] = await tx.getConnection().execute<{ pid: number }[]>('select pg_backend_pid() as pid', [], 'all', tx.getTransactionContext());
        // The connection is cut while its transaction is open, as a reset or PostgreSQL's restart cuts it.
        await killer.em.getConnection().execute('select pg_terminate_backend(?)', [row!.pid]);
      });
      await expect(work).rejects.toThrow();
    }
    // Without the release the pool's two connections are both held by dead transactions: this waits forever.
    let timer: NodeJS.Timeout | undefined;
    const answer = await Promise.race([
      orm.em.getConnection().execute<{ one: number }[]>('select 1 as one'),
      new Promise((late) => (timer = setTimeout(() => late('no connection within 5 s'), 5_000))),
    ]);
    clearTimeout(timer);
    expect(answer).toEqual([{ one: 1 }]);
  });
});

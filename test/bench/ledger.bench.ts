import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrate, openOrm } from '../../src/db/orm';
import { transfer } from '../../src/contexts/ledger/domain/ledger';
import { postEntry } from '../../src/contexts/ledger/services/ledger';
import { twoAccounts } from '../support/ledger-fixtures';

/**
 * Ledger posting cost. Baseline: the least a double-entry transfer can write (one journal row,
 * two postings, two balance updates) as raw SQL in one transaction. Subject: postEntry, which
 * adds the idempotency key, ordered row locks and the balance rules. Both run sequentially and
 * with 8 concurrent writers on the same two accounts (one hot account). Then 8 writers drain a
 * protected account that holds less than they ask for: no deadlock, every refusal an
 * INSUFFICIENT_FUNDS, the balance exactly zero at the end and never below. Prints ops/s and the
 * subject/baseline ratios; no pass/fail threshold (speed targets are read, not asserted).
 */

const N = Number(process.env.BENCH_OPS ?? 400);
const CONCURRENCY = 8;

async function timed(label: string, ops: number, run: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rate = ops / seconds;
  console.log(`${label.padEnd(44)} ${rate.toFixed(0).padStart(7)} ops/s  (${ops} ops in ${seconds.toFixed(2)} s)`);
  return rate;
}

async function inParallel(total: number, workers: number, one: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = next++; i < total; i = next++) await one(i);
    }),
  );
}

async function main(): Promise<void> {
  const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const db = `bench_${Date.now()}`;
  await admin.query(`create database ${db}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${db}`;
  const orm = await openOrm(url.toString(), { poolMax: CONCURRENCY + 2 });
  const raw = new Client({ connectionString: url.toString() });
  try {
    await migrate(orm, url.toString());
    await raw.connect();
    const accounts = await twoAccounts(orm, 10n ** 15n, 'bench');
    const platform = { id: accounts.platformId };
    const a = { id: accounts.a };
    const b = { id: accounts.b };

    const rawTransfer = async (client: Client, key: string) => {
      await client.query('begin');
      const id = `JournalEntry:${key}`;
      await client.query(`insert into journal_entries (id, platform_id, idempotency_key, description, created_at) values ($1, $2, $3, 'bench', now())`, [
        id,
        platform.id,
        key,
      ]);
      await client.query(
        `insert into postings (entry_id, account_id, currency, amount, created_at) values ($1, $2, 'USD', -1, now()), ($1, $3, 'USD', 1, now())`,
        [id, a.id, b.id],
      );
      await client.query(`update ledger_accounts set balance = balance - 1 where id = $1`, [a.id]);
      await client.query(`update ledger_accounts set balance = balance + 1 where id = $1`, [b.id]);
      await client.query('commit');
    };
    const subjectTransfer = (key: string) =>
      orm.em
        .fork()
        .transactional((tx) => postEntry(tx, { platformId: platform.id, idempotencyKey: key, description: 'bench', lines: transfer(a.id, b.id, 'USD', 1n) }));

    const run = randomBytes(4).toString('hex');
    console.log(`ledger posting, ${N} transfers per case`);
    const base1 = await timed('baseline: raw SQL, sequential', N, async () => {
      for (let i = 0; i < N; i++) await rawTransfer(raw, `raw-${run}-${i}`);
    });
    const subj1 = await timed('postEntry, sequential', N, async () => {
      for (let i = 0; i < N; i++) await subjectTransfer(`seq-${run}-${i}`);
    });
    const clients = await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        const c = new Client({ connectionString: url.toString() });
        await c.connect();
        return c;
      }),
    );
    let base2 = 0;
    try {
      base2 = await timed(`baseline: raw SQL, ${CONCURRENCY} writers`, N, () => {
        let k = 0;
        return Promise.all(
          clients.map(async (c) => {
            for (let i = k++; i < N; i = k++) await rawTransfer(c, `rawc-${run}-${i}`);
          }),
        ).then(() => undefined);
      });
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    const subj2 = await timed(`postEntry, ${CONCURRENCY} writers`, N, () =>
      inParallel(N, CONCURRENCY, (i) => subjectTransfer(`par-${run}-${i}`).then(() => undefined)),
    );
    console.log(`ratio postEntry/raw SQL, sequential:          ${(subj1 / base1).toFixed(2)}   (target ≥ 0.8)`);
    console.log(`ratio postEntry/raw SQL, hot account, 8 writers: ${(subj2 / base2).toFixed(2)}   (target ≥ 0.5)`);

    // Draining a protected account: 8 writers ask for 2N units of one that holds N.
    const drain = await twoAccounts(orm, BigInt(N), 'bench-drain');
    let refused = 0;
    let posted = 0;
    await timed('postEntry, 8 writers draining one account', 2 * N, () =>
      inParallel(2 * N, CONCURRENCY, async (i) => {
        try {
          await orm.em.fork().transactional((tx) =>
            postEntry(tx, {
              platformId: drain.platformId,
              idempotencyKey: `drain-${run}-${i}`,
              description: 'bench',
              lines: transfer(drain.a, drain.b, 'USD', 1n),
            }),
          );
          posted++;
        } catch (err) {
          if ((err as { code?: string }).code !== 'INSUFFICIENT_FUNDS') throw err;
          refused++;
        }
      }),
    );
    const [drained] = (await raw.query<{ balance: string }>('select balance::text as balance from ledger_accounts where id = $1', [drain.a])).rows;
    console.log(`hot account drained: ${posted} posted, ${refused} refused (INSUFFICIENT_FUNDS), final balance ${drained!.balance}, no deadlock`);
    if (posted !== N || refused !== N || drained!.balance !== '0') throw new Error('the drained account does not add up');

    const [{ balance }] = (await raw.query<{ balance: string }>('select balance::text as balance from ledger_accounts where id = $1', [b.id])).rows;
    if (BigInt(balance) !== BigInt(4 * N)) throw new Error(`ledger drifted: ${balance} != ${4 * N}`);
  } finally {
    await raw.end().catch(() => undefined);
    await orm.close();
    await admin.query(`drop database ${db} with (force)`);
    await admin.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

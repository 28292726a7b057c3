import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Registry } from 'prom-client';
import type { MikroORM } from '@mikro-orm/postgresql';
import { migrate, openOrm } from '../../src/db/orm';
import { transfer } from '../../src/contexts/ledger/domain/ledger';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { holdFunds, settleHold } from '../../src/contexts/ledger/services/holds';
import { openInternalAccount } from '../../src/contexts/ledger/services/internal-accounts';
import { ensureSystemAccount, postEntry, sandboxFundingAccountId } from '../../src/contexts/ledger/services/ledger';
import { createPlatform } from '../../src/contexts/platform-setup/services/platform-setup';
import { createDbMetrics, type DbMetrics } from '../../src/observability/db-metrics';

/**
 * Shared rows on the payout path. A payout's money moves in two database transactions (hold,
 * then settlement), each posting to the platform's system accounts (PENDING_OUTGOING,
 * RAIL_CLEARING, fee accounts) and then making more round trips before it commits, as the
 * payment path does (ROUND_TRIPS `select 1`s stand for them). Subject: 16 concurrent payout
 * streams from 16 different customers of ONE platform. Baseline, in the same run: the same 16
 * streams from 16 customers of 16 different platforms, which share no row at all. A ratio near
 * 1 shows that no platform-wide row serializes a platform's payouts. Then 16 concurrent payouts
 * from one account that can cover only some of them: never overdrawn, every refusal an
 * INSUFFICIENT_FUNDS, and the ledger audit clean. Prints payouts/s and the ratio; no threshold
 * is asserted (speed is read, not tested).
 */

const STREAMS = 16;
const PER_STREAM = Number(process.env.BENCH_PAYOUTS_PER_STREAM ?? 25);
const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 6);
const AMOUNT = 1_000n;

async function fundedAccount(orm: MikroORM, platformId: string, amount: bigint): Promise<string> {
  const em = orm.em.fork();
  const account = openInternalAccount(em, { platformId, customerId: null, currency: 'USD' });
  await em.flush();
  const source = sandboxFundingAccountId(platformId, 'USD');
  await em.transactional(async (tx) => {
    await ensureSystemAccount(tx, platformId, source, 'SANDBOX_FUNDING_SOURCE', 'USD');
    await postEntry(tx, { platformId, idempotencyKey: `seed:${account.id}`, description: 'seed', lines: transfer(source, account.id, 'USD', amount) });
  });
  return account.id;
}

/** One payout's ledger work: the hold, then the settlement, each in its own transaction with the round trips that follow it. */
async function payout(orm: MikroORM, platformId: string, accountId: string, transactionId: string): Promise<void> {
  const more = async (tx: Parameters<Parameters<MikroORM['em']['transactional']>[0]>[0]) => {
    for (let i = 0; i < ROUND_TRIPS; i++) await tx.getConnection().execute('select 1', [], 'all', tx.getTransactionContext());
  };
  const base = { platformId, transactionId, accountId, currency: 'USD', amount: AMOUNT };
  await orm.em.fork().transactional(async (tx) => {
    await holdFunds(tx, base);
    await more(tx);
  });
  await orm.em.fork().transactional(async (tx) => {
    await settleHold(tx, { ...base, serviceFees: 10n, platformFees: 5n, delivery: { receivingCurrency: 'EUR', receivedAmount: 900n } });
    await more(tx);
  });
}

async function dbCounts(db: DbMetrics): Promise<{ statements: number; transactions: number }> {
  return {
    statements: (await db.statements.get()).values.reduce((s, v) => s + v.value, 0),
    transactions: (await db.transactions.get()).values.filter((v) => v.labels.outcome === 'commit').reduce((s, v) => s + v.value, 0),
  };
}

async function streams(label: string, run: string, targets: { platformId: string; accountId: string }[], orm: MikroORM): Promise<number> {
  const started = process.hrtime.bigint();
  await Promise.all(
    targets.map(async (t, s) => {
      for (let i = 0; i < PER_STREAM; i++) await payout(orm, t.platformId, t.accountId, `Transaction:${run}-${s}-${i}`);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const ops = targets.length * PER_STREAM;
  const rate = ops / seconds;
  console.log(`${label.padEnd(52)} ${rate.toFixed(0).padStart(6)} payouts/s  (${ops} in ${seconds.toFixed(2)} s)`);
  return rate;
}

async function main(): Promise<void> {
  const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const db = `bench_payouts_${Date.now()}`;
  await admin.query(`create database ${db}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${db}`;
  const counters = createDbMetrics(new Registry());
  const orm = await openOrm(url.toString(), { poolMax: STREAMS + 2, dbMetrics: counters });
  try {
    await migrate(orm, url.toString());
    const plenty = AMOUNT * BigInt(PER_STREAM * 4 + 10);
    const onePlatform = await createPlatform(orm.em.fork(), { name: 'bench-one', currencies: ['USD'] });
    const shared: { platformId: string; accountId: string }[] = [];
    const separate: { platformId: string; accountId: string }[] = [];
    for (let s = 0; s < STREAMS; s++) {
      shared.push({ platformId: onePlatform.id, accountId: await fundedAccount(orm, onePlatform.id, plenty) });
      const own = await createPlatform(orm.em.fork(), { name: `bench-${s}`, currencies: ['USD'] });
      separate.push({ platformId: own.id, accountId: await fundedAccount(orm, own.id, plenty) });
    }
    const run = randomBytes(4).toString('hex');
    console.log(`payouts: ${STREAMS} concurrent streams of ${PER_STREAM} payouts (hold + settlement, ${ROUND_TRIPS} more round trips in each transaction)`);
    // A payout per stream first creates every platform's system accounts (provisioning's job).
    for (const t of [...shared, ...separate]) await payout(orm, t.platformId, t.accountId, `Transaction:warm-${run}-${t.accountId}`);
    // Alternated, so that load from outside weighs on both alike.
    let baseline = 0;
    let subject = 0;
    for (let round = 0; round < 2; round++) {
      baseline += await streams(`baseline: 16 customers of 16 platforms (round ${round + 1})`, `sep-${round}-${run}`, separate, orm);
      subject += await streams(`16 customers of one platform (round ${round + 1})`, `one-${round}-${run}`, shared, orm);
    }
    console.log(`ratio 16 customers of one platform / of 16 platforms: ${(subject / baseline).toFixed(2)}   (target ≥ 0.8)`);
    // What one payout's ledger work asks of PostgreSQL, round trips included, on an idle database.
    const before = await dbCounts(counters);
    for (let i = 0; i < 10; i++) await payout(orm, shared[0]!.platformId, shared[0]!.accountId, `Transaction:sample-${run}-${i}`);
    const after = await dbCounts(counters);
    console.log(
      `per payout's ledger work (sequential sample of 10): SQL statements ${((after.statements - before.statements) / 10).toFixed(1)} (${ROUND_TRIPS * 2} of them the stand-in round trips)   db transactions ${((after.transactions - before.transactions) / 10).toFixed(1)}`,
    );

    // One account, 16 payouts at once, enough for 5 of them.
    const payer = await fundedAccount(orm, onePlatform.id, AMOUNT * 5n + 1n);
    const outcomes = await Promise.allSettled(Array.from({ length: STREAMS }, (_, i) => payout(orm, onePlatform.id, payer, `Transaction:over-${run}-${i}`)));
    const refusals = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    const other = refusals.filter((r) => (r.reason as { code?: string }).code !== 'INSUFFICIENT_FUNDS');
    const [row] = await orm.em
      .getConnection()
      .execute<{ balance: string; held: string }[]>('select balance::text as balance, held::text as held from ledger_accounts where id = ?', [payer]);
    const { findings } = await runLedgerAudit(orm.em.fork());
    console.log(
      `16 payouts from one account that covers 5: ${STREAMS - refusals.length} paid, ${refusals.length} refused (INSUFFICIENT_FUNDS), final balance ${row!.balance} (held ${row!.held}), ledger audit ${findings.length} findings`,
    );
    if (other.length > 0) throw other[0]!.reason;
    if (STREAMS - refusals.length !== 5 || row!.balance !== '1' || row!.held !== '0' || findings.length > 0)
      throw new Error(`the account does not add up: ${JSON.stringify(findings.slice(0, 3))}`);
  } finally {
    await orm.close();
    await admin.query(`drop database ${db} with (force)`);
    await admin.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

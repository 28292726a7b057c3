import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client as PgClient } from 'pg';
import { freePorts } from '../../../src/dev/ports';
import { eventually } from '../../support/eventually';
import { WebhookReceiver } from '../../support/receiver';
import { ClusterStack } from '../cluster-stack';
import { KillablePostgres } from '../killable-postgres';
import { PartnerClient, PayoutLoad, preparePayer, type Payer } from '../partner-load';
import { ledgerFindings } from '../ledger-findings';

/**
 * The backup and restore drill (docs/production.md "Backup and restore"): the production topology, WAL archiving
 * turned on under payouts (`npm run backup:archiving`: PostgreSQL restarts once), payouts running while `npm run
 * backup` copies the whole PostgreSQL server, more payouts after it, the
 * stack stopped, `npm run restore -- <backup> --to backup` into a new cluster, the topology started on it with the
 * same master key. Then: the ledger audit is clean; every payout the restored database knows has exactly one
 * workflow in the restored Temporal, and the open ones complete; the payouts made after the restore point are gone
 * from both databases; what the partner's webhook endpoint received again. Recovery time: from the restore
 * command's start to /ready answering and a new payout COMPLETED.
 *
 *   npm run drill -- restore                      (RESTORE_DRILL_PAYOUTS=<during>,<after>, default 60,20)
 */

const root = resolve(__dirname, '../../..');
/**
 * Quotes on SEPA Instant live 2 minutes (SEPA's 15): a payout executed in a workflow task that the restore point
 * cut off resumes at its quote's expiry (workflows/payments/await-execution.ts), so within 2 minutes of its quote.
 */
const RAIL = 'SEPA_INSTANT';
const FINAL = new Set(['COMPLETED', 'FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED']);

export interface RestoreDrillOptions {
  /** Names its folders: `.data/<name>`, `.data/postgres-<name>` (and `-restored`), `.data/<name>-backups`. */
  name: string;
  /** Payouts running while the backup is taken (a quarter of them answered before it starts). */
  payoutsBefore: number;
  /** Payouts started once the backup is done: the restore point is before them, so the restored service must not know them. */
  payoutsAfter: number;
  inFlight: number;
  say?: (line: string) => void;
}

export interface RestoreDrillResult {
  figures: Record<string, number | string>;
  /** Failed checks, one line each: empty when the drill passed. */
  failures: string[];
}

/** Runs a bash command of the project, its stderr passed on to `say`; resolves with its last stdout line. */
function run(args: string[], say: (line: string) => void, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn('bash', args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      for (const line of d.toString().split(/[\n\r]/)) if (line.trim()) say(line);
    });
    child.once('exit', (code) => (code === 0 ? done(out.trim().split('\n').pop()!) : fail(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

async function query<T extends Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const pg = new PgClient({ connectionString: url });
  await pg.connect();
  try {
    return (await pg.query<T>(sql, params)).rows;
  } finally {
    await pg.end();
  }
}

function databaseOf(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const seconds = (ms: number) => Number((ms / 1000).toFixed(1));

/** The transaction a webhook is about (payment events carry the transaction as `data`), if any. */
function transactionOf(data: Record<string, unknown>): string | undefined {
  return typeof data.id === 'string' && data.id.startsWith('Transaction:') ? data.id : undefined;
}

export async function runRestoreDrill(options: RestoreDrillOptions): Promise<RestoreDrillResult> {
  const say = options.say ?? ((line: string) => process.stderr.write(`[drill:restore] ${line}\n`));
  const failures: string[] = [];
  const check = (ok: boolean, failure: string) => {
    if (!ok) failures.push(failure);
  };
  const clusterName = `postgres-${options.name}`;
  const restoredName = `${clusterName}-restored`;
  const backupDir = join(root, '.data', `${options.name}-backups`);
  // An earlier run's clusters, archive and backups: a fresh archive, or recovery would follow that run's timelines.
  for (const name of [clusterName, restoredName]) new KillablePostgres(name, 0).stop();
  for (const path of [clusterName, restoredName, `${clusterName}.wal-archive`, `${restoredName}.password`, `${restoredName}.log`, `${options.name}-backups`])
    rmSync(join(root, '.data', path), { recursive: true, force: true });

  const receiver = await new WebhookReceiver().start();
  let stack: ClusterStack | undefined;
  try {
    say(`starting the production topology (${clusterName})`);
    stack = await ClusterStack.start({ name: options.name, say });
    const masterKey = stack.masterKeyBase64;
    const database = new URL(stack.databaseUrl).pathname.slice(1);
    const { platformId, authorization } = await stack.sandboxPartner('restore-drill', receiver.url);
    const partner = new PartnerClient(stack.baseUrl, authorization);
    const payer = await preparePayer(partner, 'restore-drill');

    // Payouts running; the backup starts once a quarter of them have been answered, the others go on meanwhile.
    const before = new PayoutLoad(partner, payer, options.payoutsBefore, options.inFlight, RAIL);
    // Archiving turned on as an operator does, under traffic: PostgreSQL restarts once and the partner retries.
    await before.executed(1);
    const archivingStarted = Date.now();
    await run(['bin/pg-backup', 'archiving', '--cluster', clusterName], say);
    const archivingMs = Date.now() - archivingStarted;
    await before.executed(Math.ceil(options.payoutsBefore / 4));
    const answeredBeforeBackup = [...before.transactionIds];
    say(`${answeredBeforeBackup.length} payouts answered; taking the backup while the others run`);
    const backupStarted = Date.now();
    const backup = await run(['bin/pg-backup', 'backup', '--cluster', clusterName], say, { BACKUP_DIR: backupDir });
    const backupMs = Date.now() - backupStarted;
    const info = Object.fromEntries(
      readFileSync(join(backup, 'backup.env'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    // Executed once the backup (and its restore point) was done: unknown to the restored service as payouts.
    const executedByBackupEnd = before.transactionIds.length;
    const executedAfterBackup = () => before.transactionIds.slice(executedByBackupEnd);
    say(`backup done (${info.RESTORE_POINT} at ${info.RESTORE_POINT_LSN}); ${options.payoutsAfter} more payouts after it`);
    const after = new PayoutLoad(partner, payer, options.payoutsAfter, options.inFlight, RAIL);
    // One more after the point, with an Idempotency-Key the partner keeps: sent again after the restore.
    const resentKey = `restore-drill-${Date.now()}`;
    const resentQuote = await quoteWithKey(stack.baseUrl, authorization, resentKey, payer);
    await partner.send('POST', `/quotes/${String(resentQuote.body.id)}/execute`);
    const resentTransactionId = String(resentQuote.body.transactionId);
    await before.settled();
    const { states: afterStates } = await after.settled();
    check(
      [...afterStates.values()].every((s) => s === 'COMPLETED'),
      `payouts after the backup did not all complete: ${JSON.stringify([...afterStates.values()])}`,
    );
    // Every payment's completion announced before the stop, so that what comes after the restore is told apart.
    const announced = (ids: string[]) =>
      ids.every((id) => receiver.received.some((h) => h.body.type === 'OUTGOING_PAYMENT.COMPLETED' && transactionOf(h.body.data) === id));
    await eventually(
      async () => announced([...before.transactionIds, ...after.transactionIds]),
      (all) => all,
      120_000,
    ).catch(() => check(false, 'not every completion webhook arrived before the stop'));
    const beforeStop = receiver.received.length;
    const idsBeforeStop = new Set(receiver.received.map((h) => h.body.id));
    say(`stopping the stack (${receiver.received.length} webhooks received so far)`);
    await stack.stop();
    stack = undefined;

    // ---- the restore, timed to a payout completing on the restored service ----
    const restoreStarted = Date.now();
    await run(['bin/pg-backup', 'restore', backup, '--to', 'backup', '--into', restoredName], say);
    const restoredMs = Date.now() - restoreStarted;
    const atPoint = await statusesAtPoint(restoredName, database, platformId);
    say('starting the production topology on the restored cluster (same master key)');
    const stackStarted = Date.now();
    stack = await ClusterStack.start({
      name: `${options.name}-after`,
      existingPostgres: { clusterName: restoredName, database },
      masterKeyBase64: masterKey,
      say,
    });
    const readyMs = restoredMs + Date.now() - stackStarted;
    const restoredPartner = new PartnerClient(stack.baseUrl, authorization);
    const first = new PayoutLoad(restoredPartner, payer, 1, 1, RAIL);
    const { states: firstStates } = await first.settled();
    const recoveredMs = restoredMs + Date.now() - stackStarted;
    check([...firstStates.values()][0] === 'COMPLETED', `the first payout after the restore ended ${[...firstStates.values()][0]}`);

    // The partner sends its lost request again with the same Idempotency-Key: the same quote and transaction ids.
    const requoted = await quoteWithKey(stack.baseUrl, authorization, resentKey, payer);
    check(
      requoted.status === 201 && requoted.body.id === resentQuote.body.id && requoted.body.transactionId === resentQuote.body.transactionId,
      `a quote request sent again with its Idempotency-Key after the restore got ${requoted.status} ${String(requoted.body.transactionId)}, not ${String(resentQuote.body.transactionId)}`,
    );
    await restoredPartner.send('POST', `/quotes/${String(requoted.body.id)}/execute`);

    // ---- what the restored databases know ----
    const known = await query<{ id: string; status: string; executed: boolean }>(
      stack.databaseUrl,
      `select t.id, t.status, q.executed_at is not null as executed from transactions t join quotes q on q.id = t.quote_id
        where t.platform_id = $1 and t.id <> all($2)`,
      [platformId, [...first.transactionIds, resentTransactionId]],
    );
    const knownIds = new Set(known.map((t) => t.id));
    const executedAtPoint = known.filter((t) => t.executed);
    const openAtPoint = executedAtPoint.filter((t) => !FINAL.has(atPoint.get(t.id) ?? ''));
    const quotesOnly = known.filter((t) => !t.executed);
    const lostBefore = answeredBeforeBackup.filter((id) => !knownIds.has(id));
    check(lostBefore.length === 0, `payouts answered before the backup started are missing after the restore: ${lostBefore.join(', ')}`);
    const executedIds = new Set(executedAtPoint.map((t) => t.id));
    const keptAfter = [...executedAfterBackup(), ...after.transactionIds, resentTransactionId].filter((id) => executedIds.has(id));
    check(keptAfter.length === 0, `payouts executed after the restore point are still known as executed: ${keptAfter.join(', ')}`);
    const goneAfterPoint = [...before.transactionIds, ...after.transactionIds].filter((id) => !executedIds.has(id));

    // Open payouts resume and complete; quotes the partner executed after the point are open quotes again.
    const finalStates = new Map<string, string>();
    await eventually(
      async () => {
        for (const t of known)
          if (!FINAL.has(finalStates.get(t.id) ?? '')) finalStates.set(t.id, (await restoredPartner.send('GET', `/transactions/${t.id}`)).status as string);
        return [...finalStates.values()];
      },
      (states) => states.every((s) => FINAL.has(s)),
      300_000,
    ).catch(() => undefined);
    const notFinal = executedAtPoint.filter((t) => !FINAL.has(finalStates.get(t.id) ?? ''));
    check(notFinal.length === 0, `executed payouts not final after the restore: ${notFinal.map((t) => `${t.id} ${finalStates.get(t.id)}`).join(', ')}`);
    const notCompleted = executedAtPoint.filter((t) => finalStates.get(t.id) !== 'COMPLETED');
    check(notCompleted.length === 0, `executed payouts that did not complete: ${notCompleted.map((t) => `${t.id} ${finalStates.get(t.id)}`).join(', ')}`);
    // Quotes the partner executed after the point are open quotes of the restored service: they expire (unless executed again).
    const notExpired = quotesOnly.filter((t) => finalStates.get(t.id) !== 'EXPIRED');
    check(
      notExpired.length === 0,
      `quotes executed after the point that did not expire: ${notExpired.map((t) => `${t.id} ${finalStates.get(t.id)}`).join(', ')}`,
    );

    // One workflow run per payout, in the restored Temporal (its persistence, not the eventual visibility store).
    const runs = await query<{ workflow_id: string; runs: number }>(
      databaseOf(stack.databaseUrl, 'temporal'),
      `select workflow_id, count(*)::int as runs from executions where workflow_id = any($1) group by workflow_id`,
      [known.map((t) => t.id)],
    );
    const runsOf = new Map(runs.map((r) => [r.workflow_id, r.runs]));
    const withoutWorkflow = known.filter((t) => !runsOf.has(t.id));
    const ranTwice = executedAtPoint.filter((t) => (runsOf.get(t.id) ?? 0) > 1);
    check(withoutWorkflow.length === 0, `payouts without a workflow in the restored Temporal: ${withoutWorkflow.map((t) => t.id).join(', ')}`);
    check(ranTwice.length === 0, `payouts with more than one workflow run: ${ranTwice.map((t) => t.id).join(', ')}`);
    // A quote whose workflow the point cut off is started by both workers' stranded sweeps once overdue; the payment
    // starter lets a second run follow a finished first one, which finds the quote expired and does nothing. Counted;
    // what must hold is that it moved no money.
    const expiredRanTwice = quotesOnly.filter((t) => (runsOf.get(t.id) ?? 0) > 1);
    const postedForExpired = await query<{ transaction_id: string }>(
      stack.databaseUrl,
      `select transaction_id from journal_entries where transaction_id = any($1)`,
      [quotesOnly.map((t) => t.id)],
    );
    check(postedForExpired.length === 0, `quotes executed after the point have ledger entries: ${postedForExpired.map((e) => e.transaction_id).join(', ')}`);

    // Each money movement of a payout posted once: no journal entry repeated, every completed payout alike.
    const entries = await query<{ transaction_id: string; entries: number; repeated: number }>(
      stack.databaseUrl,
      `select transaction_id, count(*)::int as entries, (count(*) - count(distinct description))::int as repeated
         from journal_entries where transaction_id = any($1) group by transaction_id`,
      [executedAtPoint.map((t) => t.id)],
    );
    const repeated = entries.filter((e) => e.repeated > 0);
    check(repeated.length === 0, `payouts with a movement posted twice: ${repeated.map((e) => e.transaction_id).join(', ')}`);
    const entryCounts = new Set(entries.map((e) => e.entries));
    check(entryCounts.size === 1 && entries.length === executedAtPoint.length, `payouts' journal entries differ: ${JSON.stringify([...entryCounts])}`);

    const findings = await ledgerFindings(stack.databaseUrl);
    check(findings.length === 0, `ledger audit findings: ${JSON.stringify(findings).slice(0, 500)}`);

    // ---- what the partner's webhook endpoint saw after the restore ----
    await eventually(
      async () => announced([...executedAtPoint.map((t) => t.id), ...first.transactionIds, resentTransactionId]),
      (all) => all,
      120_000,
    ).catch(() => check(false, 'not every completion webhook arrived after the restore'));
    const sinceRestore = receiver.received.slice(beforeStop);
    const resent = sinceRestore.filter((h) => idsBeforeStop.has(h.body.id));
    const aboutLost = sinceRestore.filter((h) => {
      const tx = transactionOf(h.body.data);
      return tx !== undefined && !knownIds.has(tx) && !first.transactionIds.includes(tx) && tx !== resentTransactionId;
    });
    check(aboutLost.length === 0, `webhooks after the restore about payouts the restored service does not know: ${aboutLost.map((h) => h.body.id).join(', ')}`);
    check(
      partner.failed.length === 0 && restoredPartner.failed.length === 0,
      `partner requests failed: ${[...partner.failed, ...restoredPartner.failed].join('; ')}`,
    );

    const figures = {
      archivingOnSeconds: seconds(archivingMs),
      partnerRetries: JSON.stringify(partner.retries),
      backupSeconds: seconds(backupMs),
      backupMiB: Number((Number(info.SIZE_BYTES) / 1024 / 1024).toFixed(1)),
      restorePoint: `${info.RESTORE_POINT} at ${info.RESTORE_POINT_LSN}`,
      restoreSeconds: seconds(restoredMs),
      readySeconds: seconds(readyMs),
      recoverySeconds: seconds(recoveredMs),
      payoutsMade: before.transactionIds.length + after.transactionIds.length,
      knownAfterRestore: known.length,
      executedAtPoint: executedAtPoint.length,
      openAtPoint: openAtPoint.length,
      quotesExecutedAfterPoint: quotesOnly.length,
      expiredQuotesWithTwoRuns: expiredRanTwice.length,
      requotedWithSameKey: requoted.body.transactionId === resentTransactionId ? 'same quote and transaction id' : 'new ids',
      goneAfterPoint: goneAfterPoint.length,
      webhooksBeforeStop: beforeStop,
      webhooksAfterRestore: sinceRestore.length,
      webhooksResentSameId: resent.length,
      expiredWebhooksAfterRestore: sinceRestore.filter((h) => h.body.type === 'OUTGOING_PAYMENT.EXPIRED').length,
      resentTypes: [...new Set(resent.map((h) => h.body.type))].sort().join(' ') || '-',
    };
    return { figures, failures };
  } finally {
    await stack?.stop();
    await receiver.stop();
  }
}

/** POST /quotes for a payout with the partner's own Idempotency-Key (PartnerClient makes a new one per request). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body is read field by field
async function quoteWithKey(baseUrl: string, authorization: string, key: string, payer: Payer): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${baseUrl}/quotes`, {
    method: 'POST',
    headers: { authorization, 'idempotency-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({
      source: { sourceType: 'ACCOUNT', accountId: payer.usdAccountId },
      destination: { destinationType: 'ACCOUNT', accountId: payer.bankAccountId, paymentRail: RAIL },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5_000,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Each payout's status as the restored cluster has it, before anything runs on it (started alone on a free port). */
async function statusesAtPoint(clusterName: string, database: string, platformId: string): Promise<Map<string, string>> {
  const [port] = await freePorts(1);
  const postgres = new KillablePostgres(clusterName, port!);
  postgres.start();
  try {
    const rows = await query<{ id: string; status: string }>(postgres.url(database), `select id, status from transactions where platform_id = $1`, [
      platformId,
    ]);
    return new Map(rows.map((r) => [r.id, r.status]));
  } finally {
    postgres.stop();
  }
}

async function main(): Promise<void> {
  const [payoutsBefore, payoutsAfter] = (process.env.RESTORE_DRILL_PAYOUTS ?? '60,20').split(',').map(Number) as [number, number];
  const { figures, failures } = await runRestoreDrill({ name: 'drill-restore', payoutsBefore, payoutsAfter, inFlight: 8 });
  for (const [name, value] of Object.entries(figures)) console.log(`${name}: ${value}`);
  for (const failure of failures) console.log(`FAILED: ${failure}`);
  console.log(failures.length === 0 ? 'restore drill: every check passed' : `restore drill: ${failures.length} checks failed`);
  process.exit(failures.length === 0 ? 0 : 1);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

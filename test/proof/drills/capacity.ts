import { Client, Connection } from '@temporalio/client';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client as PgClient } from 'pg';
import { WebhookReceiver } from '../../support/receiver';
import { averageWork, engineWork } from '../../bench/per-operation';
import { ClusterStack } from '../cluster-stack';
import { PartnerClient, PayoutLoad, preparePayer } from '../partner-load';
import { sizingTable, type Measured } from './capacity-sizing';

/**
 * `npm run drill -- capacity`: measures what one payout costs on the production topology (test/proof/cluster-stack.ts:
 * the Temporal server on PostgreSQL, 2 APIs behind HAProxy, 2 workers) — CPU per process, SQL statements and
 * commits, history events and bytes, database growth and WAL, connections per process — then prints the sizing
 * table for today's volume and 10× and 100× of it (test/proof/drills/capacity-sizing.ts turns figures into lines).
 * "Today" is the rate this run sustained unless --per-second names another.
 */

const { values: args } = parseArgs({
  options: {
    payouts: { type: 'string', default: '200' },
    'in-flight': { type: 'string', default: '16' },
    'per-second': { type: 'string' },
    'history-sample': { type: 'string', default: '20' },
  },
});
const PAYOUTS = Number(args.payouts);
const IN_FLIGHT = Number(args['in-flight']);
const SAMPLE = Math.min(Number(args['history-sample']), PAYOUTS);
/** deploy/temporal/server.yaml.template's numHistoryShards, which the drill's server was created with. */
const HISTORY_SHARDS = Number(/numHistoryShards: (\d+)/.exec(readFileSync(join(__dirname, '../../../deploy/temporal/server.yaml.template'), 'utf8'))![1]);
const say = (m: string) => process.stderr.write(`[drill capacity] ${m}\n`);

/** CPU time (user + system) of a process, in ms; 0 once it is gone. */
function cpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ
  } catch {
    return 0;
  }
}

/** The stack's PostgreSQL: its postmaster and every backend (other PostgreSQL servers on the machine are not counted). */
function postgresPids(clusterName: string): number[] {
  const postmaster = Number(readFileSync(join(__dirname, '../../../.data', clusterName, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = spawnSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map(Number);
  return [postmaster, ...children];
}

/** Established TCP connections to `port` on loopback, by the pid of the process holding them. */
function connectionsByPid(port: number): Map<number, number> {
  const out = spawnSync('ss', ['-tnpH', 'state', 'established', `( dport = :${port} )`], { encoding: 'utf8' }).stdout;
  const counts = new Map<number, number>();
  for (const match of out.matchAll(/pid=(\d+)/g)) counts.set(Number(match[1]), (counts.get(Number(match[1])) ?? 0) + 1);
  return counts;
}

interface DatabaseReading {
  sizeBytes: Record<string, number>;
  commits: Record<string, number>;
  walLsn: string;
  historyBytes: number;
}

async function readDatabase(adminUrl: string, databases: string[]): Promise<DatabaseReading> {
  const pg = new PgClient({ connectionString: adminUrl });
  await pg.connect();
  try {
    const sizes = await pg.query<{ datname: string; size: string; commits: string }>(
      `select d.datname, pg_database_size(d.datname) as size, s.xact_commit as commits
         from pg_database d join pg_stat_database s on s.datname = d.datname where d.datname = any($1)`,
      [databases],
    );
    const wal = await pg.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    const temporalUrl = new URL(adminUrl);
    temporalUrl.pathname = '/temporal';
    const temporal = new PgClient({ connectionString: temporalUrl.toString() });
    await temporal.connect();
    const history = await temporal
      .query<{ bytes: string }>('select coalesce(sum(octet_length(data)), 0) as bytes from history_node')
      .finally(() => temporal.end());
    return {
      sizeBytes: Object.fromEntries(sizes.rows.map((r) => [r.datname, Number(r.size)])),
      commits: Object.fromEntries(sizes.rows.map((r) => [r.datname, Number(r.commits)])),
      walLsn: wal.rows[0]!.lsn,
      historyBytes: Number(history.rows[0]!.bytes),
    };
  } finally {
    await pg.end();
  }
}

async function walBytesBetween(adminUrl: string, from: string, to: string): Promise<number> {
  const pg = new PgClient({ connectionString: adminUrl });
  await pg.connect();
  try {
    return Number((await pg.query<{ bytes: string }>('select pg_wal_lsn_diff($2::pg_lsn, $1::pg_lsn) as bytes', [from, to])).rows[0]!.bytes);
  } finally {
    await pg.end();
  }
}

async function main(): Promise<void> {
  const name = 'drill-capacity';
  const stack = await ClusterStack.start({ name, say });
  const receiver = await new WebhookReceiver().start();
  try {
    const adminUrl = new URL(stack.databaseUrl);
    const paymentsDb = adminUrl.pathname.slice(1);
    adminUrl.pathname = '/postgres';
    const databases = [paymentsDb, 'temporal', 'temporal_visibility'];
    const pgPort = Number(adminUrl.port);
    const { authorization } = await stack.sandboxPartner('capacity', receiver.url);
    const partner = new PartnerClient(stack.baseUrl, authorization);
    const payer = await preparePayer(partner, 'capacity', 100_000_000);
    say('warming up: 10 payouts');
    await new PayoutLoad(partner, payer, 10, 4).settled();

    const processes = ['api-1', 'api-2', 'worker-1', 'worker-2', ...stack.temporalProcesses, 'temporal-lb', 'haproxy'];
    const pids = Object.fromEntries(processes.map((p) => [p, stack.pid(p)]));
    const statements = async () => {
      let total = 0;
      let commits = 0;
      for (const p of [...stack.apiProcesses, ...stack.workerProcesses]) {
        total += (await stack.counter(p, 'payments_db_statements_total')) ?? 0;
        commits += (await stack.counter(p, 'payments_db_transactions_total', { outcome: /^commit$/ })) ?? 0;
      }
      return { total, commits };
    };
    const pgPidsBefore = postgresPids(`postgres-${name}`);
    const pgCpuBefore = new Map(pgPidsBefore.map((pid) => [pid, cpuMs(pid)]));
    const cpuBefore = Object.fromEntries(processes.map((p) => [p, cpuMs(pids[p])]));
    const sqlBefore = await statements();
    const dbBefore = await readDatabase(adminUrl.toString(), databases);

    say(`measuring: ${PAYOUTS} payouts, ${IN_FLIGHT} in flight, through HAProxy`);
    const peakConnections = new Map<number, number>();
    const sampler = setInterval(() => {
      for (const [pid, n] of connectionsByPid(pgPort)) peakConnections.set(pid, Math.max(peakConnections.get(pid) ?? 0, n));
    }, 1_000);
    const load = new PayoutLoad(partner, payer, PAYOUTS, IN_FLIGHT);
    const { states, elapsedMs } = await load.settled(900_000);
    clearInterval(sampler);
    // The last webhooks' attempts and their statements land just after COMPLETED: wait until the counters rest.
    let sqlAfter = await statements();
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      const again = await statements();
      if (again.total === sqlAfter.total) break;
      sqlAfter = again;
    }
    const cpuAfter = Object.fromEntries(processes.map((p) => [p, cpuMs(pids[p])]));
    const pgCpu = postgresPids(`postgres-${name}`).reduce((sum, pid) => sum + Math.max(0, cpuMs(pid) - (pgCpuBefore.get(pid) ?? 0)), 0);
    const dbAfter = await readDatabase(adminUrl.toString(), databases);
    const walBytes = await walBytesBetween(adminUrl.toString(), dbBefore.walLsn, dbAfter.walLsn);

    const notCompleted = [...states.values()].filter((s) => s !== 'COMPLETED').length;
    if (partner.failed.length > 0 || notCompleted > 0 || states.size !== PAYOUTS)
      throw new Error(
        `the load did not complete: ${states.size} executed, ${notCompleted} not COMPLETED, failed ${JSON.stringify(partner.failed.slice(0, 5))}`,
      );

    const connection = await Connection.connect({ address: stack.temporalAddress });
    const works = [];
    try {
      const client = new Client({ connection });
      for (const id of load.transactionIds.slice(0, SAMPLE)) works.push(await engineWork(client, id));
    } finally {
      await connection.close();
    }
    const engine = averageWork(works);
    const per = (n: number) => n / PAYOUTS;
    const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
    const delta = (a: Record<string, number>, b: Record<string, number>) => Object.fromEntries(Object.keys(b).map((k) => [k, b[k]! - (a[k] ?? 0)]));
    const measuredRate = (PAYOUTS * 1000) / elapsedMs;
    const sizeDelta = delta(dbBefore.sizeBytes, dbAfter.sizeBytes);
    const measured: Measured = {
      payoutsPerSecond: measuredRate,
      cpuMsPerPayout: {
        api: per(cpuAfter['api-1']! - cpuBefore['api-1']! + cpuAfter['api-2']! - cpuBefore['api-2']!),
        worker: per(cpuAfter['worker-1']! - cpuBefore['worker-1']! + cpuAfter['worker-2']! - cpuBefore['worker-2']!),
        temporal: per(stack.temporalProcesses.reduce((sum, node) => sum + cpuAfter[node]! - cpuBefore[node]!, 0)),
        // HAProxy in front of the APIs and the one in front of the Temporal nodes.
        haproxy: per(cpuAfter.haproxy! - cpuBefore.haproxy! + cpuAfter['temporal-lb']! - cpuBefore['temporal-lb']!),
        postgres: per(pgCpu),
      },
      sqlStatementsPerPayout: per(sqlAfter.total - sqlBefore.total),
      serviceCommitsPerPayout: per(sqlAfter.commits - sqlBefore.commits),
      databaseCommitsPerPayout: per(sum(delta(dbBefore.commits, dbAfter.commits))),
      historyEventsPerPayout: engine.events,
      workflowTasksPerPayout: engine.workflowTasks,
      historyBytesPerPayout: per(dbAfter.historyBytes - dbBefore.historyBytes),
      paymentsDbBytesPerPayout: per(sizeDelta[paymentsDb] ?? 0),
      temporalDbBytesPerPayout: per((sizeDelta.temporal ?? 0) + (sizeDelta.temporal_visibility ?? 0)),
      walBytesPerPayout: per(walBytes),
      peakConnections: {
        api: Math.max(peakConnections.get(pids['api-1']!) ?? 0, peakConnections.get(pids['api-2']!) ?? 0),
        worker: Math.max(peakConnections.get(pids['worker-1']!) ?? 0, peakConnections.get(pids['worker-2']!) ?? 0),
        // Per node: the busiest one.
        temporal: Math.max(...stack.temporalProcesses.map((node) => peakConnections.get(pids[node]!) ?? 0)),
      },
      historyShards: HISTORY_SHARDS,
    };
    const c = measured.cpuMsPerPayout;
    console.log(
      `payouts: ${PAYOUTS} (${IN_FLIGHT} in flight) all COMPLETED in ${(elapsedMs / 1000).toFixed(1)} s: ${measuredRate.toFixed(2)} payouts/s on this machine`,
    );
    console.log(
      `CPU ms per payout: API ${c.api.toFixed(1)} · worker ${c.worker.toFixed(1)} · Temporal server ${c.temporal.toFixed(1)} · PostgreSQL ${c.postgres.toFixed(1)} · HAProxy ${c.haproxy.toFixed(1)} · total ${sum(c).toFixed(1)}`,
    );
    console.log(
      `per payout: ${measured.sqlStatementsPerPayout.toFixed(1)} SQL statements and ${measured.serviceCommitsPerPayout.toFixed(1)} transactions from the service; ` +
        `${measured.databaseCommitsPerPayout.toFixed(1)} commits in PostgreSQL (the service's and the Temporal server's); ` +
        `${engine.events.toFixed(1)} history events in ${engine.workflowTasks.toFixed(1)} workflow tasks (sample of ${works.length})`,
    );
    console.log(
      `bytes per payout: history ${(measured.historyBytesPerPayout / 1024).toFixed(1)} KiB · payments database +${(measured.paymentsDbBytesPerPayout / 1024).toFixed(1)} KiB · ` +
        `Temporal's databases +${(measured.temporalDbBytesPerPayout / 1024).toFixed(1)} KiB · WAL ${(measured.walBytesPerPayout / 1024).toFixed(1)} KiB`,
    );
    console.log(
      `PostgreSQL connections at peak: each API ${measured.peakConnections.api}, each worker ${measured.peakConnections.worker}, the Temporal server ${measured.peakConnections.temporal} ` +
        `(pools allow 10 per API and worker; each server node, per service, its maxConns and visibility's)`,
    );
    const today = args['per-second'] ? Number(args['per-second']) : measuredRate;
    console.log('');
    console.log(sizingTable(measured, today));
  } finally {
    await receiver.stop();
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`[drill capacity] failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);

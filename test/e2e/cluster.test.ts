import { Client, Connection } from '@temporalio/client';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client as PgClient } from 'pg';
import { CLUSTER_PORTS } from '../../src/dev/cluster-ports';
import { acquireRunnerLock } from '../../src/dev/runner-lock';
import { parseProcessRecord } from '../../src/dev/processes';
import { eventually } from '../support/eventually';
import { takeTopologyTurn } from '../support/production-topology';
import { PartnerClient, PayoutLoad, preparePayer } from '../proof/partner-load';
import { ledgerFindings } from '../proof/ledger-findings';

// `npm run start:cluster` as an operator runs it, in short: the Temporal server (built once, cached) on
// PostgreSQL, two workers and two APIs from the compiled build behind HAProxy. The test starts it from the
// cached build, asks /ready through HAProxy, runs one payout to COMPLETED; then runs payouts as a partner
// does while one API and one worker are SIGKILLed (the runner starts them again: src/dev/restart-policy.ts),
// and stops it with Ctrl-C. Its databases are on the test PostgreSQL server; its state folder is a temporary one.

const root = resolve(__dirname, '../..');
const built = spawnSync('bash', [join(root, 'bin/lib/temporal-server.sh'), '--cached'], { stdio: 'ignore' }).status === 0;
if (!built) {
  console.warn('test/e2e/cluster.test.ts skipped: the Temporal server is not built yet (bin/lib/temporal-server.sh builds it; .ci/run does)');
}
const maybe = built ? test : test.skip;

const lb = `http://127.0.0.1:${CLUSTER_PORTS.api}`;
const dbName = 'cluster_smoke';
let runner: ChildProcess | undefined;
let output = '';
/** The runner's own lines (`[cluster] …`), apart from its children's logs. */
const runnerSaid: string[] = [];
/** Error lines (pino level 50) the replicas logged, shown when a request failed. */
const errorsLogged: string[] = [];
const keepErrors = (d: Buffer) =>
  errorsLogged.push(
    ...d
      .toString()
      .split('\n')
      .filter((line) => line.includes('"level":50')),
  );
let stateDir: string;
let databaseUrl: URL;
let creds: { tokenId: string; clientSecret: string; baseUrl: string };

async function admin<T>(work: (pg: PgClient) => Promise<T>): Promise<T> {
  const pg = new PgClient({ connectionString: process.env.TEST_DATABASE_URL });
  await pg.connect();
  try {
    return await work(pg);
  } finally {
    await pg.end();
  }
}

async function stop(): Promise<number | null> {
  if (!runner || runner.exitCode !== null) return runner?.exitCode ?? null;
  const exited = new Promise<number | null>((done) => runner!.once('exit', (code) => done(code)));
  runner.kill('SIGINT');
  return exited;
}

// The production topology's ports are fixed (src/dev/cluster-ports.ts): two test runs side by side on one machine
// (TEST_CPU_LIST, docs/testing.md) take turns at this test instead of the second finding port 3301 taken.
const portsLock = join(tmpdir(), 'payments-service-cluster-ports.lock');
let releasePorts: (() => void) | undefined;
async function takeClusterPorts(): Promise<void> {
  await eventually(
    async () => acquireRunnerLock(portsLock),
    (lock) => {
      if (lock.acquired) releasePorts = lock.release;
      return lock.acquired;
    },
    420_000,
  );
}

let releaseTurn: (() => void) | undefined;
afterAll(async () => {
  await stop();
  releasePorts?.();
  releaseTurn?.();
  if (!built) return;
  await admin((pg) => pg.query(`drop database if exists ${dbName} with (force)`));
  rmSync(stateDir, { recursive: true, force: true });
}, 120_000);

maybe(
  'starts from the cached build, answers /ready through HAProxy, and pays out to COMPLETED on the payments queue',
  async () => {
    releaseTurn = await takeTopologyTurn();
    await takeClusterPorts();
    await admin(async (pg) => {
      await pg.query(`drop database if exists ${dbName} with (force)`);
      await pg.query(`create database ${dbName}`);
    });
    databaseUrl = new URL(process.env.TEST_DATABASE_URL!);
    databaseUrl.pathname = `/${dbName}`;
    stateDir = mkdtempSync(join(tmpdir(), 'payments-cluster-'));
    runner = spawn('bash', [join(root, 'bin/cluster')], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl.toString(), CLUSTER_DATA_DIR: stateDir, LOG_LEVEL: 'warn', MASTER_KEY: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    runner.stdout!.on('data', (d: Buffer) => ((output += d.toString()), keepErrors(d)));
    runner.stderr!.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-20_000);
      keepErrors(d);
      runnerSaid.push(
        ...d
          .toString()
          .split('\n')
          .filter((line) => line.startsWith('[cluster] ')),
      );
    });

    // The same credentials line as `npm start`, printed once everything answers.
    const line = await eventually(
      async () => output.split('\n').find((l) => l.startsWith('{"platformId"')),
      (found) => found !== undefined || runner!.exitCode !== null,
      480_000,
    ).catch(() => undefined);
    if (!line) throw new Error(`the cluster did not start:\n${output.slice(-4_000)}`);
    creds = JSON.parse(line) as typeof creds;
    expect(creds.baseUrl).toBe(`${lb}/2025-10-13`);

    const ready = await fetch(`${lb}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', temporal: 'ok' } });

    // As a partner sends them: a 503 while the busy machine's Temporal server is slow is sent again.
    const partner = PartnerClient.basic(creds.baseUrl, creds);
    const call = (method: string, path: string, body?: unknown) => partner.call(method, path, body);
    const customer = await call('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'cluster-1', fullName: 'Ada Lovelace' });
    expect(customer.status).toBe(201);
    const account = (await call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&currency=USD`)).body.data[0];
    expect((await call('POST', `/sandbox/internal-accounts/${account.id}/fund`, { amount: 100_000 })).status).toBe(200);
    const bank = await call('POST', '/customers/external-accounts', {
      customerId: customer.body.id,
      currency: 'EUR',
      accountInfo: {
        accountType: 'EUR_ACCOUNT',
        iban: 'DE89370400440532013000',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', countryOfResidence: 'DE' },
      },
    });
    expect(bank.status).toBe(201);
    const quote = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: account.id },
      destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    expect(quote.status).toBe(201);
    expect((await call('POST', `/quotes/${quote.body.id}/execute`)).status).toBe(200);
    const done = await eventually(
      async () => (await call('GET', `/transactions/${quote.body.transactionId}`)).body,
      (t) => t.status === 'COMPLETED',
      120_000,
    );
    expect(done).toMatchObject({ status: 'COMPLETED', sentAmount: { amount: 10_000 } });

    // The payment's workflow ran on the money-movement queue of the cluster's own Temporal server.
    const connection = await Connection.connect({ address: `127.0.0.1:${CLUSTER_PORTS.temporal}` });
    try {
      const described = await new Client({ connection }).workflow.getHandle(quote.body.transactionId).describe();
      expect(described.taskQueue).toBe('payments');
    } finally {
      await connection.close();
    }
  },
  900_000,
);

/** The pid of a replica's process (bin/lib/tethered.sh writes it; none while the replica waits to be started again). */
function replicaPid(name: string): number | undefined {
  try {
    return parseProcessRecord(readFileSync(join(stateDir, 'run', `${name}.pid`), 'utf8'))?.pid;
  } catch {
    return undefined;
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(3_000) })).ok;
  } catch {
    return false;
  }
}

/** Identities (`<pid>@<host>`) of the workers polling the payments queue's workflow tasks on the cluster's server. */
async function paymentsPollers(): Promise<string[]> {
  const connection = await Connection.connect({ address: `127.0.0.1:${CLUSTER_PORTS.temporal}` });
  try {
    const { pollers } = await connection.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name: 'payments' }, taskQueueType: 1 });
    return (pollers ?? []).map((p) => p.identity ?? '');
  } finally {
    await connection.close();
  }
}

maybe(
  'a SIGKILL of one API and one worker under payout load: both are started again, every payout completes, no request fails after retries, the ledger balances',
  async () => {
    const partner = PartnerClient.basic(creds.baseUrl, creds);
    const payer = await preparePayer(partner, 'cluster-load');
    expect(partner.failed).toEqual([]);

    const PAYOUTS = 40;
    const IN_FLIGHT = 8;
    const load = new PayoutLoad(partner, payer, PAYOUTS, IN_FLIGHT);

    // Mid-load: a quarter of the payouts executed, the rest to come.
    await load.executed(PAYOUTS / 4);
    const killed = { api: replicaPid('api-1')!, worker: replicaPid('worker-1')! };
    const killedAt = Date.now();
    process.kill(killed.api, 'SIGKILL');
    process.kill(killed.worker, 'SIGKILL');

    const apiBack = eventually(
      async () => replicaPid('api-1') !== killed.api && (await answers(`http://127.0.0.1:${CLUSTER_PORTS.apiReplicas[0]}/health`)),
      (up) => up,
      120_000,
    ).then(() => Date.now() - killedAt);
    const workerBack = eventually(
      async () => {
        const pid = replicaPid('worker-1');
        return pid !== undefined && pid !== killed.worker && (await paymentsPollers()).some((identity) => identity.startsWith(`${pid}@`));
      },
      (up) => up,
      180_000,
    ).then(() => Date.now() - killedAt);
    // Through HAProxy the survivor answered meanwhile, and the restarted API does again.
    const [, apiBackMs, workerBackMs] = await Promise.all([load.sent, apiBack, workerBack]);
    expect(await answers(`http://127.0.0.1:${CLUSTER_PORTS.apiReplicas[0]}/ready`)).toBe(true);
    // The runner said what it did, and did nothing else: no other process exited.
    const exits = runnerSaid.filter((line) => / exited /.test(line)).sort();
    expect(exits).toEqual([
      expect.stringMatching(/^\[cluster\] api-1 exited \(SIGKILL\); starting it again in 0\.5 s \(HAProxy sends its requests to the other API\)$/),
      expect.stringMatching(/^\[cluster\] worker-1 exited \(SIGKILL\); starting it again in 0\.5 s/),
    ]);
    expect(runner!.exitCode).toBeNull();

    expect({ failed: partner.failed, errorsLogged: partner.failed.length ? errorsLogged.slice(-6) : [] }).toEqual({ failed: [], errorsLogged: [] });
    expect(load.transactionIds).toHaveLength(PAYOUTS);
    const { states, elapsedMs: completedMs } = await load.settled();
    expect(new Set(states.values())).toEqual(new Set(['COMPLETED']));

    expect(await ledgerFindings(databaseUrl.toString())).toEqual([]);
    console.log(
      `cluster under kill -9 of api-1 and worker-1: ${PAYOUTS} payouts (${IN_FLIGHT} in flight) all COMPLETED in ${(completedMs / 1000).toFixed(1)} s; ` +
        `${partner.requests} requests, ${partner.retried} sent again (${JSON.stringify(partner.retries)}), 0 failed; ` +
        `api-1 back (new pid, /health 200) ${(apiBackMs / 1000).toFixed(1)} s after the kill, worker-1 back (new pid polling the payments queue) ${(workerBackMs / 1000).toFixed(1)} s after`,
    );
  },
  900_000,
);

maybe(
  'stops on Ctrl-C',
  async () => {
    expect(runner?.exitCode).toBeNull();
    expect(await stop()).toBe(0);
    expect(
      await fetch(`${lb}/ready`).then(
        () => 'answered',
        () => 'down',
      ),
    ).toBe('down');
  },
  900_000,
);

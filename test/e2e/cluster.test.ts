import { Client, Connection } from '@temporalio/client';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client as PgClient } from 'pg';
import { CLUSTER_PORTS } from '../../src/dev/cluster-ports';
import { acquireRunnerLock } from '../../src/dev/runner-lock';
import { eventually } from '../support/eventually';

// `npm run start:cluster` as an operator runs it, in short: the Temporal server (built once, cached) on
// PostgreSQL, two workers and two APIs from the compiled build behind HAProxy. The test starts it from the
// cached build, asks /ready through HAProxy, runs one payout to COMPLETED, and stops it with Ctrl-C.
// Its databases are on the test PostgreSQL server; its state folder is a temporary one.

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
let stateDir: string;

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

afterAll(async () => {
  await stop();
  releasePorts?.();
  if (!built) return;
  await admin((pg) => pg.query(`drop database if exists ${dbName} with (force)`));
  rmSync(stateDir, { recursive: true, force: true });
}, 120_000);

maybe(
  'starts from the cached build, answers /ready through HAProxy, pays out to COMPLETED on the payments queue, and stops on Ctrl-C',
  async () => {
    await takeClusterPorts();
    await admin(async (pg) => {
      await pg.query(`drop database if exists ${dbName} with (force)`);
      await pg.query(`create database ${dbName}`);
    });
    const databaseUrl = new URL(process.env.TEST_DATABASE_URL!);
    databaseUrl.pathname = `/${dbName}`;
    stateDir = mkdtempSync(join(tmpdir(), 'payments-cluster-'));
    runner = spawn('bash', [join(root, 'bin/cluster')], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl.toString(), CLUSTER_DATA_DIR: stateDir, LOG_LEVEL: 'warn', MASTER_KEY: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    runner.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    runner.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));

    // The same credentials line as `npm start`, printed once everything answers.
    const line = await eventually(
      async () => output.split('\n').find((l) => l.startsWith('{"platformId"')),
      (found) => found !== undefined || runner!.exitCode !== null,
      480_000,
    ).catch(() => undefined);
    if (!line) throw new Error(`the cluster did not start:\n${output.slice(-4_000)}`);
    const creds = JSON.parse(line) as { tokenId: string; clientSecret: string; baseUrl: string };
    expect(creds.baseUrl).toBe(`${lb}/2025-10-13`);

    const ready = await fetch(`${lb}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', temporal: 'ok' } });

    const auth = `Basic ${Buffer.from(`${creds.tokenId}:${creds.clientSecret}`).toString('base64')}`;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${creds.baseUrl}${path}`, {
        method,
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
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

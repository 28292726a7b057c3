import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client as PgClient } from 'pg';
import { request } from 'undici';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createToken } from '../../src/contexts/platforms/services/platforms';
import { createPlatform } from '../../src/contexts/platform-setup/services/platform-setup';
import { migrate, openOrm } from '../../src/db/orm';
import { parseMasterKey } from '../../src/security/secrets';
import { freePort, freePorts, waitForPort } from '../../src/dev/ports';
import { ensureSearchAttributes } from '../../src/temporal/register-search-attributes';
import { WebhookReceiver } from '../support/receiver';
import { PAYMENT_WORKFLOW } from '../../workflows/payments/definitions';
import { sumOfCounter } from '../proof/stack';
import { prepareTemporalServer } from '../proof/temporal-server';

const none = () => undefined;
const root = resolve(__dirname, '../..');

/**
 * BENCH_TOPOLOGY=cluster (`npm run bench -- --topology cluster`): the production engine — the Temporal server
 * (PostgreSQL persistence and visibility, test/proof/temporal-server.ts) on a PostgreSQL cluster of the bench's
 * own, and the compiled build (dist/) on the queues per context. Default: the Temporal dev server and the
 * TypeScript sources, as `npm start` runs them.
 */
export const TOPOLOGY: 'dev' | 'cluster' = process.env.BENCH_TOPOLOGY === 'cluster' ? 'cluster' : 'dev';

/**
 * The task queues the service runs on: `context` (the production layout, one SDK Worker per queue in each worker
 * process) or `one` (one queue of the run's own: TEMPORAL_TASK_QUEUE). BENCH_TASK_QUEUES picks; the cluster's
 * default is `context`, the dev server's `one` (as every bench before the split ran).
 */
export const QUEUE_MODE: 'one' | 'context' = (process.env.BENCH_TASK_QUEUES ?? (TOPOLOGY === 'cluster' ? 'context' : 'one')) === 'context' ? 'context' : 'one';

/** The service as `npm start` (or, on the cluster topology, a production install) runs it, on a throw-away database and a Temporal server of its own. */
export interface Stack {
  client: Client;
  native: NativeConnection;
  orm: MikroORM;
  receiver: WebhookReceiver;
  /** The API's versioned base URL. */
  base: string;
  /** Basic credentials of a sandbox token of the bench's platform. */
  auth: string;
  /** The bench's platform. */
  platformId: string;
  /** The task queue the service's payment workflows run on. */
  taskQueue: string;
  /** What runs the service, for the printed headings: e.g. "Temporal dev server (SQLite)". */
  engine: string;
  /** SQL statements sent and database transactions committed so far, by the API and the workers together (their metrics listeners). */
  dbWork: () => Promise<{ statements: number; transactions: number }>;
  /** A process's Prometheus text, as its metrics listener serves it now (the first worker's for 'worker'). */
  metricsText: (process: 'api' | 'worker') => Promise<string>;
  /** The Temporal SDK's Prometheus text of every worker process, concatenated (polls, schedule-to-start, sticky cache). */
  sdkMetricsText: () => Promise<string>;
  /** The API and the first worker, each a process of its own (their pids are the services', not a launcher's). */
  services: { api: ChildProcess; worker: ChildProcess };
  /** Every worker process running now. */
  workers: () => ChildProcess[];
  /** Starts one more worker process; resolves once its pollers run. */
  addWorker: () => Promise<void>;
  /** Stops the last worker process (SIGINT: it drains its tasks first), keeping at least one. */
  removeWorker: () => Promise<void>;
  /** The Temporal server's process id. */
  temporalPid: number | undefined;
  /** Process ids by name (api, worker-1…, temporal), for cpuDuring. */
  pids: () => Record<string, number | undefined>;
  /** A JSON call to the API; throws on a status ≥ 300. */
  call: (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<Record<string, unknown>>;
  /** Steps run by stop(), first to last; a bench adds its own at the front. */
  cleanup: (() => Promise<unknown>)[];
  stop: () => Promise<void>;
}

/** The bench platform's UMA domain (each bench has a database of its own): its customers' addresses are on it. */
export const BENCH_UMA_DOMAIN = 'bench.example';

/** A Temporal server for one bench: its frontend's address, its pid, a PostgreSQL URL for the bench's database, and how to stop it. */
interface Engine {
  address: string;
  pid: number | undefined;
  /** A URL of the PostgreSQL server the payments database goes on (any database of it: the bench creates its own). */
  postgresUrl: string;
  label: string;
  stop: () => Promise<void>;
}

async function devEngine(): Promise<Engine> {
  const port = await freePort();
  const server = spawn(
    process.env.TEMPORAL_CLI_PATH!,
    ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port), '--namespace', 'default', '--log-level', 'error'],
    { stdio: 'ignore' },
  );
  const stop = async () => void server.kill('SIGKILL');
  try {
    await waitForPort(port, 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { address: `127.0.0.1:${port}`, pid: server.pid, postgresUrl: process.env.TEST_DATABASE_URL!, label: 'Temporal dev server (SQLite)', stop };
}

/** The PostgreSQL cluster of the cluster bench (`.data/postgres-bench-cluster`): the Temporal server's databases have fixed names. */
const BENCH_POSTGRES = 'postgres-bench-cluster';

function postgresSh(...args: string[]): string {
  const result = spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`bin/lib/postgres.sh ${args[0]} failed: ${result.stderr}`);
  return result.stdout.trim();
}

/** The production Temporal server on a PostgreSQL cluster of the bench's own, fresh (its databases dropped first), on free ports. */
async function clusterEngine(): Promise<Engine> {
  const dataDir = join(root, '.data', 'bench-cluster');
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const [pgPort] = await freePorts(1);
  // A cluster left running by an interrupted run would hold another port.
  spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'stop', BENCH_POSTGRES], { stdio: 'ignore' });
  postgresSh('start', BENCH_POSTGRES, String(pgPort));
  const postgresUrl = postgresSh('url', BENCH_POSTGRES, String(pgPort), 'postgres');
  const stopPostgres = async () => void spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'stop', BENCH_POSTGRES], { stdio: 'ignore' });
  try {
    // Every run starts from an empty engine: an earlier run's workflows would weigh on this one's.
    const admin = new PgClient({ connectionString: postgresUrl });
    await admin.connect();
    for (const db of ['temporal', 'temporal_visibility']) await admin.query(`drop database if exists ${db} with (force)`);
    await admin.end();
    const server = await prepareTemporalServer({ postgresUrl, dataDir, logFile: join(dataDir, 'temporal.log') });
    const stopServer = async () => {
      const proc = server.proc;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((done) => proc.once('exit', done));
      proc.kill('SIGINT');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    };
    try {
      await server.start();
    } catch (err) {
      await stopServer();
      throw err;
    }
    return {
      address: server.address,
      pid: server.proc?.pid,
      postgresUrl,
      label: 'Temporal server v1.29.1 on PostgreSQL',
      stop: async () => {
        await stopServer();
        await stopPostgres();
      },
    };
  } catch (err) {
    await stopPostgres();
    throw err;
  }
}

/** The service's two entry points: TypeScript through the tsx loader on the dev topology, the compiled build on the cluster. */
function serviceArgs(entry: 'api' | 'worker'): string[] {
  if (TOPOLOGY === 'cluster') return [join(root, entry === 'api' ? 'dist/src/api/main.js' : 'dist/worker/main.js')];
  // tsx as a loader keeps each service in the process spawned here (the tsx CLI would start a child of its own).
  // BENCH_PROFILE_DIR=<dir> writes a CPU profile of the API and of the worker there (open in Chrome DevTools).
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  return [...profile, '--import', 'tsx', entry === 'api' ? 'src/api/main.ts' : 'worker/main.ts'];
}

/** Until a worker's SDK metrics show its pollers (its Workers are created and polling). */
async function pollersRunning(sdkMetricsPort: number, worker: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (worker.exitCode !== null) throw new Error(`the worker exited (${worker.exitCode}) before polling`);
    try {
      if ((await (await request(`http://127.0.0.1:${sdkMetricsPort}/metrics`)).body.text()).includes('temporal_num_pollers')) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the worker did not start polling within 120 s');
}

/** Sends SIGINT and waits for the process to end. */
async function interrupt(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  await exited;
}

/** A running stack with `workers` worker processes (default 1). */
export async function startStack(name: string, options: { workers?: number } = {}): Promise<Stack> {
  const engine = TOPOLOGY === 'cluster' ? await clusterEngine() : await devEngine();
  const admin = new PgClient({ connectionString: engine.postgresUrl });
  await admin.connect();
  const db = `bench_${name}_${Date.now()}`;
  await admin.query(`create database ${db}`);
  const dbUrl = new URL(engine.postgresUrl);
  dbUrl.pathname = `/${db}`;
  const cleanup: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const step of cleanup) await step().catch(none);
    await admin.query(`drop database if exists ${db} with (force)`).catch(none);
    await admin.end();
    await engine.stop();
  };
  try {
    const { address } = engine;
    const orm = await openOrm(dbUrl.toString(), { poolMax: 20 });
    cleanup.push(() => orm.close());
    await migrate(orm, dbUrl.toString());
    const connection = await Connection.connect({ address });
    cleanup.push(() => connection.close());
    await ensureSearchAttributes(connection, 'default');
    const client = new Client({ connection, namespace: 'default' });
    const native = await NativeConnection.connect({ address });
    cleanup.push(() => native.close());
    const receiver = await new WebhookReceiver().start();
    cleanup.push(() => receiver.stop());

    const [apiPort, apiMetrics] = (await freePorts(2)) as [number, number];
    const taskQueue = QUEUE_MODE === 'context' ? PAYMENT_WORKFLOW.taskQueue : `bench-payments-${randomUUID()}`;
    const { TEMPORAL_TASK_QUEUE: _ignored, WORKER_TASK_QUEUES: _all, ...inherited } = process.env;
    const env: NodeJS.ProcessEnv = {
      ...inherited,
      ...(TOPOLOGY === 'cluster' ? { NODE_ENV: 'production', PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}` } : {}),
      DATABASE_URL: dbUrl.toString(),
      TEMPORAL_ADDRESS: address,
      MASTER_KEY: randomBytes(32).toString('base64'),
      PORT: String(apiPort),
      // One queue of the run's own, or (unset) the queues per context, every worker polling all of them.
      ...(QUEUE_MODE === 'one' ? { TEMPORAL_TASK_QUEUE: taskQueue } : {}),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      WEBHOOK_ALLOW_LOOPBACK: '1',
      // Metrics listeners on ports of the run's own: a bench beside a running stack never collides with it.
      METRICS_PORT: String(apiMetrics),
    };
    const workers: { proc: ChildProcess; metrics: number; sdkMetrics: number }[] = [];
    const addWorker = async () => {
      const [metrics, sdkMetrics] = (await freePorts(2)) as [number, number];
      const proc = spawn(process.execPath, serviceArgs('worker'), {
        env: { ...env, WORKER_METRICS_PORT: String(metrics), TEMPORAL_METRICS_ADDRESS: `127.0.0.1:${sdkMetrics}` },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      workers.push({ proc, metrics, sdkMetrics });
      await pollersRunning(sdkMetrics, proc);
    };
    const removeWorker = async () => {
      if (workers.length <= 1) throw new Error('the last worker stays');
      await interrupt(workers.pop()!.proc);
    };
    const api = spawn(process.execPath, serviceArgs('api'), { env, stdio: ['ignore', 'ignore', 'inherit'] });
    cleanup.unshift(async () => {
      await Promise.all([api, ...workers.map((w) => w.proc)].map(interrupt));
    });
    for (let i = 0; i < (options.workers ?? 1); i++) await addWorker();
    await waitForPort(apiPort, 60_000);

    const em = orm.em.fork();
    const platform = await createPlatform(em, {
      name: `bench-${name}`,
      currencies: ['USD'],
      webhookEndpoint: receiver.url,
      isRegulatedFinancialInstitution: true,
      umaDomain: BENCH_UMA_DOMAIN,
    });
    const token = await createToken(em, parseMasterKey(env.MASTER_KEY!), platform.id, 'SANDBOX');
    const auth = `Basic ${Buffer.from(`${token.tokenId}:${token.clientSecret}`).toString('base64')}`;
    const base = `http://127.0.0.1:${apiPort}/2025-10-13`;
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await request(`${base}${path}`, {
        method,
        headers: { authorization: auth, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const json = (await res.body.json()) as Record<string, unknown>;
      if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
      return json;
    };
    const text = async (port: number) => (await request(`http://127.0.0.1:${port}/metrics`)).body.text();
    const metricsText = async (process: 'api' | 'worker') => text(process === 'api' ? apiMetrics : workers[0]!.metrics);
    const sdkMetricsText = async () => (await Promise.all(workers.map((w) => text(w.sdkMetrics)))).join('\n');
    const dbWork = async () => {
      const texts = await Promise.all([text(apiMetrics), ...workers.map((w) => text(w.metrics))]);
      return {
        statements: texts.reduce((sum, t) => sum + sumOfCounter(t, 'payments_db_statements_total'), 0),
        transactions: texts.reduce((sum, t) => sum + sumOfCounter(t, 'payments_db_transactions_total', { outcome: /^commit$/ }), 0),
      };
    };
    return {
      client,
      native,
      orm,
      receiver,
      base,
      auth,
      platformId: platform.id,
      taskQueue,
      engine: `${engine.label}, ${TOPOLOGY === 'cluster' ? 'compiled build' : 'tsx'}, ${QUEUE_MODE === 'context' ? 'queues per context' : 'one task queue'}`,
      dbWork,
      metricsText,
      sdkMetricsText,
      services: { api, worker: workers[0]!.proc },
      workers: () => workers.map((w) => w.proc),
      addWorker,
      removeWorker,
      temporalPid: engine.pid,
      pids: () => ({ api: api.pid, ...Object.fromEntries(workers.map((w, i) => [`worker-${i + 1}`, w.proc.pid])), temporal: engine.pid }),
      call,
      cleanup,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** `count` customers of the bench's platform, each with its USD internal account; the accounts' ids. */
export async function customerAccounts(stack: Stack, count: number): Promise<string[]> {
  const accounts: string[] = [];
  for (let i = 0; i < count; i++) {
    const customer = await stack.call('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `bench-${i}`, fullName: 'Bench Customer' });
    const list = (await stack.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(String(customer.id))}&currency=USD`)) as {
      data: { id: string }[];
    };
    accounts.push(list.data[0]!.id);
  }
  return accounts;
}

/** One sandbox funding of 100 through HTTP with an Idempotency-Key; resolves with the key, rejects on any other answer than 200. */
export function funder(stack: Stack, accounts: string[]): (i: number) => Promise<string> {
  return async (i) => {
    const key = `bench-${randomUUID()}`;
    const res = await request(`${stack.base}/sandbox/internal-accounts/${accounts[i % accounts.length]}/fund`, {
      method: 'POST',
      headers: { authorization: stack.auth, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ amount: 100 }),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`funding answered ${res.statusCode} ${text.slice(0, 200)}`);
    return key;
  };
}

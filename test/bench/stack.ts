import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
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
import { sumOfCounter } from '../proof/stack';

const none = () => undefined;

/** The service as `npm start` runs it, on a throw-away database and a Temporal dev server of its own. */
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
  /** The task queue the service's worker polls. */
  taskQueue: string;
  /** SQL statements sent and database transactions committed so far, by the API and the worker together (their metrics listeners). */
  dbWork: () => Promise<{ statements: number; transactions: number }>;
  /** A process's Prometheus text, as its metrics listener serves it now. */
  metricsText: (process: 'api' | 'worker') => Promise<string>;
  /** The API and the worker, each a process of its own (their pids are the services', not a launcher's). */
  services: { api: ChildProcess; worker: ChildProcess };
  /** The Temporal dev server's process id. */
  temporalPid: number | undefined;
  /** A JSON call to the API; throws on a status ≥ 300. */
  call: (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<Record<string, unknown>>;
  /** Steps run by stop(), first to last; a bench adds its own at the front. */
  cleanup: (() => Promise<unknown>)[];
  stop: () => Promise<void>;
}

/** The bench platform's UMA domain (each bench has a database of its own): its customers' addresses are on it. */
export const BENCH_UMA_DOMAIN = 'bench.example';

export async function startStack(name: string): Promise<Stack> {
  const admin = new PgClient({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const db = `bench_${name}_${Date.now()}`;
  await admin.query(`create database ${db}`);
  const dbUrl = new URL(process.env.TEST_DATABASE_URL!);
  dbUrl.pathname = `/${db}`;
  const port = await freePort();
  const server = spawn(
    process.env.TEMPORAL_CLI_PATH!,
    ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port), '--namespace', 'default', '--log-level', 'error'],
    { stdio: 'ignore' },
  );
  const cleanup: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const step of cleanup) await step().catch(none);
    server.kill('SIGKILL');
    await admin.query(`drop database if exists ${db} with (force)`).catch(none);
    await admin.end();
  };
  try {
    await waitForPort(port, 60_000);
    const address = `127.0.0.1:${port}`;
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

    const [apiPort, apiMetrics, workerMetrics, sdkMetrics] = await freePorts(4);
    // Metrics listeners on ports of the run's own: a bench beside a running stack never collides with it.
    const metricsPorts = { METRICS_PORT: String(apiMetrics), WORKER_METRICS_PORT: String(workerMetrics), TEMPORAL_METRICS_ADDRESS: `127.0.0.1:${sdkMetrics}` };
    const taskQueue = `bench-payments-${randomUUID()}`;
    const env = {
      ...process.env,
      DATABASE_URL: dbUrl.toString(),
      TEMPORAL_ADDRESS: address,
      MASTER_KEY: randomBytes(32).toString('base64'),
      PORT: String(apiPort),
      TEMPORAL_TASK_QUEUE: taskQueue,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      WEBHOOK_ALLOW_LOOPBACK: '1',
      ...metricsPorts,
    };
    // tsx as a loader keeps each service in the process spawned here (the tsx CLI would start a child of its own).
    // BENCH_PROFILE_DIR=<dir> writes a CPU profile of the API and of the worker there (open in Chrome DevTools).
    const runner = [...(process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []), '--import', 'tsx'];
    const services = {
      worker: spawn(process.execPath, [...runner, 'worker/main.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] }),
      api: spawn(process.execPath, [...runner, 'src/api/main.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] }),
    };
    cleanup.unshift(async () => {
      const children = Object.values(services);
      for (const child of children) child.kill('SIGINT');
      await Promise.all(children.map((child) => (child.exitCode !== null ? undefined : new Promise((r) => child.once('exit', r)))));
    });
    await waitForPort(apiPort, 60_000);

    const em = orm.em.fork();
    const platform = await createPlatform(em, {
      name: `bench-${name}`,
      currencies: ['USD'],
      webhookEndpoint: receiver.url,
      isRegulatedFinancialInstitution: true,
      umaDomain: BENCH_UMA_DOMAIN,
    });
    const token = await createToken(em, parseMasterKey(env.MASTER_KEY), platform.id, 'SANDBOX');
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
    const metricsText = async (process: 'api' | 'worker') =>
      (await request(`http://127.0.0.1:${process === 'api' ? apiMetrics : workerMetrics}/metrics`)).body.text();
    const dbWork = async () => {
      const texts = await Promise.all([metricsText('api'), metricsText('worker')]);
      return {
        statements: texts.reduce((sum, text) => sum + sumOfCounter(text, 'payments_db_statements_total'), 0),
        transactions: texts.reduce((sum, text) => sum + sumOfCounter(text, 'payments_db_transactions_total', { outcome: /^commit$/ }), 0),
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
      dbWork,
      metricsText,
      services,
      temporalPid: server.pid,
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

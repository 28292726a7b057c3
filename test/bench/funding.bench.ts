import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { request } from 'undici';
import { createPlatform, createToken } from '../../src/contexts/platforms/services/platforms';
import { migrate, openOrm } from '../../src/db/orm';
import { freePort, waitForPort } from '../../src/dev/ports';
import { ensureSearchAttributes } from '../../src/temporal/register-search-attributes';
import { WebhookReceiver } from '../support/receiver';
import { bankActivities } from './template/activities';
import type { moneyTransfer } from './template/workflows';

/**
 * Sandbox funding against the money-transfer template's shape, in the same run, on the same
 * Temporal dev server (SQLite), with the same client concurrency. Funding goes through the
 * real path, with the API and the worker as separate processes as `npm start` runs them:
 * HTTP → Express → starter → incomingPayment workflow → PostgreSQL ledger → webhook delivery to a
 * local receiver; its completion is the HTTP answer (the money is posted). The
 * template's completion is its workflow result. Prints completions/s, p50/p99 latency, the
 * funding/template ratio and the engine work per execution counted from recorded histories.
 * No threshold is asserted: speed is read here, never in tests.
 */

const OPS = Number(process.env.BENCH_WORKFLOWS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ACCOUNTS = 64;

const none = () => undefined;

interface Run {
  rate: number;
  p50: number;
  p99: number;
  ids: string[];
}

/** Completions per second and latency percentiles of a finished run. */
function summarize(ops: number, started: number, latencies: number[], ids: string[]): Run & { seconds: number } {
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  return { rate: ops / seconds, p50: pct(50), p99: pct(99), ids, seconds };
}

async function load(label: string, ops: number, one: (i: number) => Promise<string>): Promise<Run> {
  const latencies: number[] = [];
  const ids: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < ops; i = next++) {
        const t0 = performance.now();
        ids.push(await one(i));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const run = summarize(ops, started, latencies, ids);
  console.log(`${label.padEnd(34)} ${run.rate.toFixed(1).padStart(6)} completions/s   p50 ${run.p50.toFixed(0).padStart(5)} ms   p99 ${run.p99.toFixed(0).padStart(5)} ms   (${ops} in ${run.seconds.toFixed(1)} s, ${CONCURRENCY} in flight)`);
  return run;
}

/** Open-loop load: request i leaves at i / rate seconds whatever the answers so far, so latency is measured at that rate. */
async function paced(label: string, ops: number, rate: number, one: (i: number) => Promise<string>): Promise<Run> {
  const latencies: number[] = [];
  const ids: string[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: ops }, async (_, i) => {
      const wait = started + (i * 1000) / rate - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const t0 = performance.now();
      ids.push(await one(i));
      latencies.push(performance.now() - t0);
    }),
  );
  const run = summarize(ops, started, latencies, ids);
  console.log(`${label.padEnd(34)} ${rate.toFixed(1).padStart(6)} requests/s offered   p50 ${run.p50.toFixed(0).padStart(5)} ms   p99 ${run.p99.toFixed(0).padStart(5)} ms   (${ops} in ${run.seconds.toFixed(1)} s)`);
  return run;
}

/** Engine work of one execution, from its history (children included). */
async function engineWork(client: Client, workflowId: string): Promise<{ workflows: number; workflowTasks: number; activityTasks: number; localActivities: number; events: number }> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const count = (attr: keyof (typeof events)[number]) => events.filter((e) => e[attr]).length;
  const own = {
    workflows: 1,
    workflowTasks: count('workflowTaskCompletedEventAttributes'),
    activityTasks: count('activityTaskScheduledEventAttributes'),
    // Local activities leave a marker; so does patched(), which is not work: count markers with a result payload.
    localActivities: events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length,
    events: events.length,
  };
  const children = events.map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId).filter((id): id is string => !!id);
  for (const child of children) {
    await client.workflow.getHandle(child).result().catch(none);
    const w = await engineWork(client, child);
    own.workflows += w.workflows;
    own.workflowTasks += w.workflowTasks;
    own.activityTasks += w.activityTasks;
    own.localActivities += w.localActivities;
    own.events += w.events;
  }
  return own;
}

async function averageWork(client: Client, ids: string[]) {
  const sample = ids.slice(0, 10);
  const works: Awaited<ReturnType<typeof engineWork>>[] = [];
  for (const id of sample) works.push(await engineWork(client, id));
  const avg = (k: keyof (typeof works)[number]) => works.reduce((s, w) => s + w[k], 0) / works.length;
  return { workflows: avg('workflows'), workflowTasks: avg('workflowTasks'), activityTasks: avg('activityTasks'), localActivities: avg('localActivities'), events: avg('events') };
}

async function main(): Promise<void> {
  Runtime.install({ logger: { log: none, trace: none, debug: none, info: none, warn: none, error: (m) => console.error(m) } });

  // A throw-away database and a dev server of the run's own.
  const admin = new PgClient({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const db = `bench_funding_${Date.now()}`;
  await admin.query(`create database ${db}`);
  const dbUrl = new URL(process.env.TEST_DATABASE_URL!);
  dbUrl.pathname = `/${db}`;
  const port = await freePort();
  const server = spawn(process.env.TEMPORAL_CLI_PATH!, ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port), '--namespace', 'default', '--log-level', 'error'], { stdio: 'ignore' });
  const cleanup: (() => Promise<unknown>)[] = [];
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
    const masterKeyText = randomBytes(32).toString('base64');

    const receiver = await new WebhookReceiver().start();
    cleanup.push(() => receiver.stop());
    const paymentsQueue = `bench-payments-${randomUUID()}`;
    const templateQueue = `bench-template-${randomUUID()}`;

    // The service as `npm start` runs it: the API and the worker, each a process of its own.
    const apiPort = await freePort();
    // Metrics listeners on ports of the run's own: a bench beside a running stack never collides with it.
    const metricsPorts = { METRICS_PORT: String(await freePort()), WORKER_METRICS_PORT: String(await freePort()), TEMPORAL_METRICS_ADDRESS: `127.0.0.1:${await freePort()}` };
    const env = { ...process.env, DATABASE_URL: dbUrl.toString(), TEMPORAL_ADDRESS: address, MASTER_KEY: masterKeyText, PORT: String(apiPort), TEMPORAL_TASK_QUEUE: paymentsQueue, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', ...metricsPorts };
    const tsx = require.resolve('tsx/cli');
    // BENCH_PROFILE_DIR=<dir> writes a CPU profile of the API and of the worker there (open in Chrome DevTools).
    // (The tsx CLI would run the service in a child process of its own; the loader keeps it in the profiled one.)
    const runner = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`, '--import', 'tsx'] : [tsx];
    const services = [spawn(process.execPath, [...runner, 'worker/main.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] }), spawn(process.execPath, [...runner, 'src/api/main.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] })];
    cleanup.unshift(async () => {
      for (const child of services) child.kill('SIGINT');
      await Promise.all(services.map((child) => (child.exitCode !== null ? undefined : new Promise((r) => child.once('exit', r)))));
    });
    await waitForPort(apiPort, 60_000);

    // The template's worker, in this process (its activities are in memory).
    const templateWorker = await Worker.create({
      connection: native,
      taskQueue: templateQueue,
      workflowBundle: await bundleWorkflowCode({ workflowsPath: require.resolve('./template/workflows'), logger: { log: none, trace: none, debug: none, info: none, warn: none, error: none } }),
      activities: bankActivities(),
    });
    const running = templateWorker.run();
    cleanup.unshift(async () => {
      templateWorker.shutdown();
      await running;
    });

    const base = `http://127.0.0.1:${apiPort}/2025-10-13`;
    const em = orm.em.fork();
    const platform = await createPlatform(em, { name: 'bench', currencies: ['USD'], webhookEndpoint: receiver.url, isRegulatedFinancialInstitution: true });
    const token = await createToken(em, platform.id, 'SANDBOX');
    const auth = `Basic ${Buffer.from(`${token.tokenId}:${token.clientSecret}`).toString('base64')}`;
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await request(`${base}${path}`, { method, headers: { authorization: auth, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
      const json = (await res.body.json()) as Record<string, unknown>;
      if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
      return json;
    };
    const accounts: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const customer = await call('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `bench-${i}`, fullName: 'Bench Customer' });
      const list = (await call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(String(customer.id))}&currency=USD`)) as { data: { id: string }[] };
      accounts.push(list.data[0]!.id);
    }

    const fund = async (i: number) => {
      const key = `bench-${randomUUID()}`;
      const res = await request(`${base}/sandbox/internal-accounts/${accounts[i % ACCOUNTS]}/fund`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify({ amount: 100 }) });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`funding answered ${res.statusCode}`);
      return key;
    };
    const transfer = async (i: number) => {
      const referenceId = randomUUID();
      await client.workflow.execute<typeof moneyTransfer>('moneyTransfer', { taskQueue: templateQueue, workflowId: `transfer-${referenceId}`, args: [{ amount: 100, sourceAccount: `a-${i % ACCOUNTS}`, targetAccount: `b-${i % ACCOUNTS}`, referenceId }] });
      return `transfer-${referenceId}`;
    };

    console.log(`funding vs the money-transfer template: ${OPS} each, ${CONCURRENCY} in flight, one Temporal dev server (SQLite)`);
    await load('warm-up (template)', 40, transfer);
    await load('warm-up (funding)', 40, fund);
    const template = await load('template transfer', OPS, transfer);
    const funding = await load('sandbox funding (HTTP)', OPS, fund);

    // Engine work per execution. Funding workflow ids are transaction ids derived from the keys.
    const recent: string[] = [];
    for await (const wf of client.workflow.list({ query: `WorkflowType = 'incomingPayment'` })) {
      recent.push(wf.workflowId);
      if (recent.length >= 10) break;
    }
    const tw = await averageWork(client, template.ids);
    const fw = await averageWork(client, recent);
    const row = (label: string, w: typeof tw) =>
      console.log(`${label.padEnd(34)} workflows ${w.workflows.toFixed(1)}   workflow tasks ${w.workflowTasks.toFixed(1)}   activity tasks ${w.activityTasks.toFixed(1)}   local activities ${w.localActivities.toFixed(1)}   history events ${w.events.toFixed(1)}`);
    console.log('engine work per execution (average of 10, children included):');
    row('template transfer', tw);
    row('sandbox funding', fw);
    console.log(`ratio funding/template (completions per second): ${(funding.rate / template.rate).toFixed(2)}`);

    // Payouts: quote → execute → COMPLETED (ledger settled, webhook delivered), against the same
    // template; and quote creation (one workflow start behind HTTP) against a bare StartWorkflow.
    const banks: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      await call('POST', `/sandbox/internal-accounts/${accounts[i]}/fund`, { amount: 100_000_000 });
      const owner = (await call('GET', `/customers/internal-accounts?limit=100&currency=USD`)) as { data: { id: string; customerId: string }[] };
      const customerId = owner.data.find((a) => a.id === accounts[i])!.customerId;
      const bank = await call('POST', '/customers/external-accounts', { customerId, currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bench Customer', countryOfResidence: 'DE' } } });
      banks.push(String(bank.id));
    }
    const quoteFor = (i: number) => call('POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: accounts[i % ACCOUNTS] }, destination: { destinationType: 'ACCOUNT', accountId: banks[i % ACCOUNTS] }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 });
    const completed = new Set<string>();
    const waiters = new Map<string, () => void>();
    const seen = setInterval(() => {
      for (const hook of receiver.received.splice(0)) {
        if (hook.body.type !== 'OUTGOING_PAYMENT.COMPLETED') continue;
        const id = String(hook.body.data.id);
        completed.add(id);
        waiters.get(id)?.();
      }
    }, 5);
    const payout = async (i: number) => {
      const quote = await quoteFor(i);
      const transactionId = String(quote.transactionId);
      const done = new Promise<void>((resolve) => (completed.has(transactionId) ? resolve() : waiters.set(transactionId, resolve)));
      await call('POST', `/quotes/${String(quote.id)}/execute`);
      await done;
      waiters.delete(transactionId);
      return String(quote.id);
    };
    const quoteOnly = async (i: number) => String((await quoteFor(i)).id);
    const bareStart = async () => {
      const referenceId = randomUUID();
      await client.workflow.start<typeof moneyTransfer>('moneyTransfer', { taskQueue: `idle-${templateQueue}`, workflowId: `start-${referenceId}`, args: [{ amount: 1, sourceAccount: 'a', targetAccount: 'b', referenceId }] });
      return `start-${referenceId}`;
    };
    await load('warm-up (payout)', 40, payout);
    const template2 = await load('template transfer (again)', OPS, transfer);
    const payouts = await load('payout to COMPLETED (HTTP)', OPS, payout);
    const bare = await load('bare StartWorkflow', OPS, bareStart);
    const quotes = await load('quote creation (HTTP)', OPS, quoteOnly);
    clearInterval(seen);
    const pw = await averageWork(client, payouts.ids);
    row('payout (quote + payment)', pw);
    console.log(`ratio payout/template (completions per second): ${(payouts.rate / template2.rate).toFixed(2)}   (target ≥ 1.0)`);
    console.log(`ratio quote creation/bare StartWorkflow: ${(quotes.rate / bare.rate).toFixed(2)}   (target ≥ 0.8)`);
    // Latency at half the quote rate just measured, for both, offered at the same pace.
    const halfRate = quotes.rate / 2;
    const pacedOps = Math.max(100, Math.round(halfRate * 10));
    const bareAtHalf = await paced('bare StartWorkflow, paced', pacedOps, halfRate, bareStart);
    const quotesAtHalf = await paced('quote creation (HTTP), paced', pacedOps, halfRate, quoteOnly);
    console.log(`ratio quote creation p99/bare StartWorkflow p99 at ${halfRate.toFixed(1)}/s: ${(quotesAtHalf.p99 / bareAtHalf.p99).toFixed(2)}   (target ≤ 2.0)`);
  } finally {
    for (const step of cleanup) await step().catch(none);
    server.kill('SIGKILL');
    await admin.query(`drop database if exists ${db} with (force)`).catch(none);
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

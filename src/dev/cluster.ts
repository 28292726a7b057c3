import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { basePath } from '../config';
import { ensureNamespace, temporalPortsFrom, writeHaproxyConfig, writeTemporalConfigs } from './cluster-configs';
import { CLUSTER_PORTS as P } from './cluster-ports';
import { stackMasterKey } from './master-key';
import { portOpen, waitForPort } from './ports';
import { acquireRunnerLock } from './runner-lock';
import { releaseOwnPostgres } from './shared-postgres';
import { stopChildren } from './stop-children';
import { Supervisor } from './supervisor';
import { sandboxCredentials } from './sandbox-credentials';

/**
 * The production topology on this machine, for `npm run start:cluster` (bin/cluster builds and provisions,
 * then runs this, compiled): the Temporal server (PostgreSQL persistence and visibility) and its Web UI,
 * two worker processes, two API processes behind HAProxy. One runner per checkout; its children are tethered
 * to it (bin/lib/tethered.sh), so none outlives it; Ctrl-C (or `npm run start:cluster -- --stop`) stops all.
 * A replica (API or worker) that exits is started again with back-off, until it keeps crashing; the Temporal
 * server, its UI, HAProxy or PostgreSQL going away stops all (docs/production.md, "What restarts, what stops").
 */

const root = resolve(__dirname, '../../..'); // compiled: dist/src/dev/
const dataDir = resolve(process.env.CLUSTER_DATA_DIR ?? join(root, '.data/cluster'));
const runDir = join(dataDir, 'run');
const shown = (path: string) => relative(root, path) || '.';
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);
const say = (msg: string) => process.stderr.write(`[cluster] ${msg}\n`);
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (bin/cluster sets it)`);
  return value;
}

function writeConfigs(): { temporalRoot: string; uiRoot: string; haproxyConfig: string } {
  const ports = temporalPortsFrom(P.temporal, P.temporalHttp, P.temporalMembership, P.temporalMetrics, P.ui);
  const pg = { host: env('SQL_HOST'), port: env('SQL_PORT'), user: env('SQL_USER'), password: env('SQL_PASSWORD') };
  const { temporalRoot, uiRoot } = writeTemporalConfigs(root, dataDir, ports, pg);
  const haproxyConfig = join(dataDir, 'haproxy.cfg');
  writeHaproxyConfig(root, haproxyConfig, P.api, P.apiReplicas);
  return { temporalRoot, uiRoot, haproxyConfig };
}

/** Resolves once `url` answers 200 (through HAProxy: some replica is ready). */
async function answers(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

async function main(): Promise<void> {
  mkdirSync(runDir, { recursive: true });
  const lock = acquireRunnerLock(join(dataDir, 'up.pid'));
  if (!lock.acquired) {
    say(`the cluster is already running (runner pid ${lock.holderPid}); leaving it alone.`);
    say('stop it with Ctrl-C in its terminal, or: npm run start:cluster -- --stop');
    process.exit(1);
  }
  let stopping = false;
  // An API or worker replica that exits is started again while the other one serves; the Temporal server, its UI
  // or HAProxy exiting, or a replica that keeps crashing, stops everything (src/dev/supervisor.ts).
  const supervisor = new Supervisor({
    spawnChild: (name, command, args, childEnv) =>
      spawn('bash', [join(root, 'bin/lib/tethered.sh'), join(runDir, `${name}.pid`), command, ...args], {
        cwd: root,
        env: childEnv,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      }),
    say,
    stopEverything: () => void stopAll(1),
  });
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    supervisor.stop();
    say('stopping…');
    // Reverse order: HAProxy, APIs, workers, UI, Temporal.
    await stopChildren(supervisor.children, say, 20_000);
    // Stopped only if no other runner of this checkout (npm start, start:cluster) still uses it.
    await releaseOwnPostgres(root);
    lock.release();
    say(`stopped; data kept in ${shown(dataDir)}/ and the PostgreSQL databases`);
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stopAll(0));
  process.on('uncaughtException', (err) => {
    say(`${stopping ? 'while stopping: ' : 'failed: '}${err.message}`);
    void stopAll(1);
  });
  const start: Starter = (name, command, args, childEnv) => supervisor.start(name, command, args, childEnv);

  try {
    await startCluster(start, () => stopping);
    const [host, port] = [env('SQL_HOST'), Number(env('SQL_PORT'))];
    void postgresGone(host, port, () => stopping).then((gone) => {
      if (!gone || stopping) return;
      say(`PostgreSQL (${host}:${port}) has not answered for 10 s; the Temporal server and the replicas cannot work without it: stopping everything`);
      void stopAll(1);
    });
  } catch (err) {
    if (stopping) return;
    say(`failed: ${err instanceof Error ? err.message : String(err)}`);
    await stopAll(1);
  }
}

/**
 * PostgreSQL is no child of the runner (pg_ctl runs it, or it is DATABASE_URL's server), so it is watched: resolves
 * true once it has refused connections at 5 checks in a row, 2 s apart (a restart by hand within that is ridden out).
 */
async function postgresGone(host: string, port: number, isStopping: () => boolean): Promise<boolean> {
  for (let missed = 0; missed < 5;) {
    await sleep(2_000);
    if (isStopping()) return false;
    missed = (await portOpen(port, host)) ? 0 : missed + 1;
  }
  return true;
}

type Starter = (name: string, command: string, args: string[], env?: NodeJS.ProcessEnv) => ChildProcess;

async function startCluster(start: Starter, isStopping: () => boolean): Promise<void> {
  const ports = [P.api, ...P.apiReplicas, P.temporal, P.temporalHttp, P.ui, ...P.apiMetrics, ...P.workerMetrics, ...P.sdkMetrics, P.temporalMetrics];
  for (const port of ports)
    if (await portOpen(port)) throw new Error(`port ${port} is in use by another program: stop it first (docs/production.md: Running the production topology)`);
  const tools = env('TEMPORAL_SERVER_DIR');
  const { temporalRoot, uiRoot, haproxyConfig } = writeConfigs();
  // PG_STANDBY (bin/lib/cluster-standby.sh): every client reaches PostgreSQL through the front, started first.
  if (process.env.PG_FRONT_CONFIG) {
    say(`starting the PostgreSQL front on 127.0.0.1:${env('PG_FRONT_PORT')} (npm run failover moves it to the standby)`);
    start('pg-front', env('HAPROXY'), ['-db', '-f', process.env.PG_FRONT_CONFIG]);
    await waitForPort(Number(env('PG_FRONT_PORT')), 30_000);
  }
  const temporalAddress = `127.0.0.1:${P.temporal}`;

  say(`starting the Temporal server on ${temporalAddress} (PostgreSQL databases temporal, temporal_visibility)`);
  start('temporal', join(tools, 'temporal-server'), ['--root', temporalRoot, '--config', 'config', '--env', 'cluster', '--allow-no-auth', 'start']);
  await waitForPort(P.temporal, 120_000);
  await ensureNamespace(temporalAddress, say);
  if (isStopping()) return;
  start('temporal-ui', join(tools, 'temporal-ui-server'), ['--root', uiRoot, '--config', 'config', '--env', 'cluster', 'start']);

  const databaseUrl = env('DATABASE_URL');
  const baseUrl = `http://127.0.0.1:${P.api}${basePath('')}`;
  say('running migrations');
  const creds = await sandboxCredentials(databaseUrl, baseUrl, { dataDir, masterKey: stackMasterKey(dataDir, { create: true }), say });
  if (isStopping()) return;

  const common = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    MASTER_KEY: stackMasterKey(dataDir, { create: false }),
    PUBLIC_BASE_URL: `http://127.0.0.1:${P.api}`,
    WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK ?? '1',
    // HAProxy asks each API's /ready every second: at `info` those lines would bury the rest.
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  // Compiled JavaScript (npm run build), one Node process per replica; workers poll WORKER_TASK_QUEUES (default: all).
  P.workerMetrics.forEach((metricsPort, i) =>
    start(`worker-${i + 1}`, process.execPath, [join(root, 'dist/worker/main.js')], {
      ...common,
      WORKER_METRICS_PORT: String(metricsPort),
      TEMPORAL_METRICS_ADDRESS: `127.0.0.1:${P.sdkMetrics[i]}`,
    }),
  );
  P.apiReplicas.forEach((port, i) =>
    start(`api-${i + 1}`, process.execPath, [join(root, 'dist/src/api/main.js')], { ...common, PORT: String(port), METRICS_PORT: String(P.apiMetrics[i]) }),
  );
  await Promise.all(P.apiReplicas.map((port) => answers(`http://127.0.0.1:${port}/ready`, 120_000)));
  if (isStopping()) return;
  start('haproxy', env('HAPROXY'), ['-db', '-f', haproxyConfig]);
  await answers(`http://127.0.0.1:${P.api}/ready`, 30_000);
  if (isStopping()) return;

  process.stdout.write(
    [
      '',
      'Payments service is running (production topology: Temporal server on PostgreSQL, 2 workers, 2 APIs behind HAProxy).',
      `  API base URL:    ${baseUrl}   (HAProxy → 127.0.0.1:${P.apiReplicas.join(', 127.0.0.1:')})`,
      `  API reference:   ${baseUrl}/reference   (OpenAPI: ${baseUrl}/openapi.json)`,
      `  Temporal UI:     http://127.0.0.1:${P.ui}   (Temporal frontend ${temporalAddress})`,
      `  Readiness:       http://127.0.0.1:${P.api}/ready`,
      `  Metrics:         APIs ${P.apiMetrics.map((p) => `http://127.0.0.1:${p}/metrics`).join(' ')}, workers ${P.workerMetrics.map((p) => `http://127.0.0.1:${p}/metrics`).join(' ')}, Temporal server http://127.0.0.1:${P.temporalMetrics}/metrics`,
      '  Sandbox credentials (HTTP Basic: tokenId as user, clientSecret as password):',
      JSON.stringify(creds),
      'Press Ctrl-C to stop (or: npm run start:cluster -- --stop).',
      '',
    ].join('\n') + '\n',
  );
}

main().catch((err: unknown) => {
  say(`failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { basePath } from '../config';
import { ensureNamespace, temporalPortsFrom, writeHaproxyConfig, writeTemporalConfigs, writeTemporalLbConfig } from './cluster-configs';
import { CLUSTER_PORTS as P } from './cluster-ports';
import { stackMasterKey } from './master-key';
import { portOpen, waitForPort } from './ports';
import { acquireRunnerLock } from './runner-lock';
import { releaseOwnPostgres } from './shared-postgres';
import { stopChildren } from './stop-children';
import { serveRunnerRequests, type ReplicaStatus, type RunnerAnswer, type RunnerRequest } from './runner-requests';
import { isReplica, Supervisor } from './supervisor';
import { sandboxCredentials } from './sandbox-credentials';
import { waitForRing } from './temporal-ring';

/**
 * The production topology on this machine, for `npm run start:cluster` (bin/cluster builds and provisions,
 * then runs this, compiled): the Temporal server as two nodes in one ring (PostgreSQL persistence and visibility)
 * behind HAProxy, and its Web UI,
 * two worker processes, two API processes behind HAProxy. One runner per checkout; its children are tethered
 * to it (bin/lib/tethered.sh), so none outlives it; Ctrl-C (or `npm run start:cluster -- --stop`) stops all.
 * A replica (API, worker or Temporal node) that exits is started again with back-off, until it keeps crashing; either
 * HAProxy, the UI or PostgreSQL going away stops all (docs/production.md, "What restarts, what stops").
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

function writeConfigs(): { temporalRoots: string[]; uiRoot: string; haproxyConfig: string; temporalLbConfig: string } {
  const pg = { host: env('SQL_HOST'), port: env('SQL_PORT'), user: env('SQL_USER'), password: env('SQL_PASSWORD') };
  const nodes = P.temporalNodes.map((node, i) =>
    writeTemporalConfigs(root, dataDir, temporalPortsFrom(node.frontend, node.http, node.membership, node.metrics, P.ui), pg, {
      index: i + 1,
      sharedFrontendPort: P.temporal,
    }),
  );
  const temporalLbConfig = join(dataDir, 'temporal-haproxy.cfg');
  writeTemporalLbConfig(
    root,
    temporalLbConfig,
    P.temporal,
    P.temporalNodes.map((node) => node.frontend),
  );
  const haproxyConfig = join(dataDir, 'haproxy.cfg');
  writeHaproxyConfig(root, haproxyConfig, P.api, P.apiReplicas);
  return { temporalRoots: nodes.map((node) => node.temporalRoot), uiRoot: nodes[0]!.uiRoot, haproxyConfig, temporalLbConfig };
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
  // An API, worker or Temporal node that exits is started again while the other one serves; the UI or either
  // HAProxy exiting, or a replica that keeps crashing, stops everything (src/dev/supervisor.ts).
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
    requests?.stop();
    say('stopping…');
    // Reverse order: HAProxy, APIs, workers, UI, Temporal nodes, HAProxy in front of them.
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
  let requests: { stop: () => void } | undefined;

  try {
    const cluster = await startCluster(start, () => stopping);
    if (!cluster) return;
    // Deploy scripts (npm run deploy:apis, deploy:workers) ask for replicas to be restarted, started or retired.
    requests = serveRunnerRequests(join(runDir, 'requests'), (request) => answerRequest(request, supervisor, cluster));
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

/** What the runner knows of its replicas, and how it starts one more worker (worker-N) from a compiled build. */
interface RunningCluster {
  replicas: Map<string, Omit<ReplicaStatus, 'running'>>;
  startWorker: (n: number, buildDir: string, buildId?: string) => void;
}

/** A deploy script's request (src/dev/runner-requests.ts), done by the supervisor: no restart counts as a crash. */
async function answerRequest(request: RunnerRequest, supervisor: Supervisor, cluster: RunningCluster): Promise<RunnerAnswer> {
  const running = (name: string) => {
    const proc = supervisor.children.find((child) => child.name === name)?.proc;
    return proc !== undefined && proc.exitCode === null && proc.signalCode === null;
  };
  switch (request.action) {
    case 'status':
      return { ok: true, replicas: [...cluster.replicas.values()].map((replica) => ({ ...replica, running: running(replica.name) })) };
    case 'restart':
    case 'retire':
      say(`${request.action === 'restart' ? 'restarting' : 'retiring'} ${request.name} (a deploy asked)`);
      await supervisor.stopOnRequest(request.name, request.action);
      if (request.action === 'retire') cluster.replicas.delete(request.name);
      return { ok: true };
    case 'start-workers': {
      if (!process.env.WORKER_DEPLOYMENT_NAME) return { ok: false, error: 'the cluster runs unversioned workers (WORKER_DEPLOYMENT_NAME is not set)' };
      const builds = resolve(dataDir, 'builds');
      const buildDir = resolve(request.buildDir);
      if (!buildDir.startsWith(`${builds}/`) || !existsSync(join(buildDir, 'worker/main.js')))
        return { ok: false, error: `${request.buildDir} is no compiled build under ${shown(builds)}/` };
      const taken = supervisor.children.map((child) => child.name).filter((name) => name.startsWith('worker-') && isReplica(name));
      let next = Math.max(0, ...taken.map((name) => Number(name.slice('worker-'.length)))) + 1;
      const started = P.workerMetrics.map(() => next++);
      for (const n of started) cluster.startWorker(n, buildDir, request.buildId);
      return { ok: true, started: started.map((n) => `worker-${n}`) };
    }
  }
}

async function startCluster(start: Starter, isStopping: () => boolean): Promise<RunningCluster | undefined> {
  const replicas = new Map<string, Omit<ReplicaStatus, 'running'>>();
  const ports = [
    P.api,
    ...P.apiReplicas,
    P.temporal,
    ...P.temporalNodes.flatMap((node) => [node.frontend, node.http, node.metrics]),
    P.ui,
    ...P.apiMetrics,
    ...P.workerMetrics,
    ...P.sdkMetrics,
  ];
  for (const port of ports)
    if (await portOpen(port)) throw new Error(`port ${port} is in use by another program: stop it first (docs/production.md: Running the production topology)`);
  const tools = env('TEMPORAL_SERVER_DIR');
  const { temporalRoots, uiRoot, haproxyConfig, temporalLbConfig } = writeConfigs();
  // PG_STANDBY (bin/lib/cluster-standby.sh): every client reaches PostgreSQL through the front, started first.
  if (process.env.PG_FRONT_CONFIG) {
    say(`starting the PostgreSQL front on 127.0.0.1:${env('PG_FRONT_PORT')} (npm run failover moves it to the standby)`);
    start('pg-front', env('HAPROXY'), ['-db', '-f', process.env.PG_FRONT_CONFIG]);
    await waitForPort(Number(env('PG_FRONT_PORT')), 30_000);
  }
  const temporalAddress = `127.0.0.1:${P.temporal}`;

  // HAProxy first: the nodes' cluster address (clusterMetadata rpcAddress) and everyone's TEMPORAL_ADDRESS is its port.
  say(
    `starting the Temporal server: ${P.temporalNodes.length} nodes in one ring (PostgreSQL databases temporal, temporal_visibility), HAProxy on ${temporalAddress} in front`,
  );
  start('temporal-lb', env('HAPROXY'), ['-db', '-f', temporalLbConfig]);
  // One node after the other: the first creates the cluster's metadata, the next joins its ring.
  for (const [i, node] of P.temporalNodes.entries()) {
    start(`temporal-${i + 1}`, join(tools, 'temporal-server'), [
      '--root',
      temporalRoots[i]!,
      '--config',
      'config',
      '--env',
      'cluster',
      '--allow-no-auth',
      'start',
    ]);
    await waitForPort(node.frontend, 120_000);
    if (i === 0) await ensureNamespace(temporalAddress, say);
    const ring = await waitForRing(`127.0.0.1:${node.frontend}`, i + 1, 120_000);
    say(`temporal-${i + 1} (frontend 127.0.0.1:${node.frontend}) is in the ring: history hosts ${ring.join(', ')}`);
    if (isStopping()) return undefined;
  }
  start('temporal-ui', join(tools, 'temporal-ui-server'), ['--root', uiRoot, '--config', 'config', '--env', 'cluster', 'start']);

  const databaseUrl = env('DATABASE_URL');
  const baseUrl = `http://127.0.0.1:${P.api}${basePath('')}`;
  say('running migrations');
  const creds = await sandboxCredentials(databaseUrl, baseUrl, { dataDir, masterKey: stackMasterKey(dataDir, { create: true }), say });
  if (isStopping()) return undefined;

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
  // worker-N's metrics ports: the N-th of four from the first (a new build's workers start beside the old ones').
  const startWorker = (n: number, buildDir: string, buildId = process.env.WORKER_BUILD_ID) => {
    const name = `worker-${n}`;
    start(name, process.execPath, [join(buildDir, 'worker/main.js')], {
      ...common,
      ...(buildId ? { WORKER_BUILD_ID: buildId } : {}),
      WORKER_METRICS_PORT: String(P.workerMetrics[0] + ((n - 1) % 4)),
      TEMPORAL_METRICS_ADDRESS: `127.0.0.1:${P.sdkMetrics[0] + ((n - 1) % 4)}`,
    });
    replicas.set(name, {
      name,
      buildDir,
      ...(process.env.WORKER_DEPLOYMENT_NAME && buildId ? { deploymentName: process.env.WORKER_DEPLOYMENT_NAME, buildId } : {}),
    });
  };
  P.workerMetrics.forEach((_, i) => startWorker(i + 1, join(root, 'dist')));
  P.apiReplicas.forEach((port, i) => {
    start(`api-${i + 1}`, process.execPath, [join(root, 'dist/src/api/main.js')], { ...common, PORT: String(port), METRICS_PORT: String(P.apiMetrics[i]) });
    replicas.set(`api-${i + 1}`, { name: `api-${i + 1}`, buildDir: join(root, 'dist') });
  });
  await Promise.all(P.apiReplicas.map((port) => answers(`http://127.0.0.1:${port}/ready`, 120_000)));
  if (isStopping()) return undefined;
  start('haproxy', env('HAPROXY'), ['-db', '-f', haproxyConfig]);
  await answers(`http://127.0.0.1:${P.api}/ready`, 30_000);
  if (isStopping()) return undefined;

  process.stdout.write(
    [
      '',
      `Payments service is running (production topology: Temporal server of ${P.temporalNodes.length} nodes on PostgreSQL, 2 workers, 2 APIs behind HAProxy).`,
      `  API base URL:    ${baseUrl}   (HAProxy → 127.0.0.1:${P.apiReplicas.join(', 127.0.0.1:')})`,
      `  API reference:   ${baseUrl}/reference   (OpenAPI: ${baseUrl}/openapi.json)`,
      `  Temporal UI:     http://127.0.0.1:${P.ui}   (Temporal frontend ${temporalAddress}: HAProxy → 127.0.0.1:${P.temporalNodes.map((node) => node.frontend).join(', 127.0.0.1:')})`,
      `  Readiness:       http://127.0.0.1:${P.api}/ready`,
      `  Metrics:         APIs ${P.apiMetrics.map((p) => `http://127.0.0.1:${p}/metrics`).join(' ')}, workers ${P.workerMetrics.map((p) => `http://127.0.0.1:${p}/metrics`).join(' ')}, Temporal nodes ${P.temporalNodes.map((node) => `http://127.0.0.1:${node.metrics}/metrics`).join(' ')}`,
      `  Ring:            npm run cluster:ring   (each node's view of the membership ring, and which node holds each history shard)`,
      '  Sandbox credentials (HTTP Basic: tokenId as user, clientSecret as password):',
      JSON.stringify(creds),
      'Press Ctrl-C to stop (or: npm run start:cluster -- --stop).',
      '',
    ].join('\n') + '\n',
  );
  return { replicas, startWorker };
}

main().catch((err: unknown) => {
  say(`failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

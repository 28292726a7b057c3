import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client as PgClient } from 'pg';
import { basePath } from '../../src/config';
import { haproxySocketOf, writeHaproxyConfig, writeTemporalLbConfig } from '../../src/dev/cluster-configs';
import { freePorts, waitForPort } from '../../src/dev/ports';
import { frontConfigFile, writePostgresFront } from '../../src/dev/postgres-front';
import { migrate, openOrm } from '../../src/db/orm';
import { KillablePostgres } from './killable-postgres';
import { createSandboxPartner, withPort, type Partner, type ProofStack, type Upstream } from './proof-stack';
import { sleep, sumOfCounter } from './stack';
import { prepareTemporalNodes, type TemporalServer } from './temporal-server';

/**
 * The production topology (as `npm run start:cluster` runs it) on ports and data of its own (`.data/<name>`,
 * PostgreSQL in `.data/postgres-<name>`): a project-owned PostgreSQL cluster holding the payments database and
 * Temporal's, the Temporal server on it (two nodes in one ring behind HAProxy, by default), two workers and two APIs
 * from the compiled build (dist/, `npm run build`), HAProxy in front of the APIs (partners talk to it). Every process can be SIGKILLed and restarted on the
 * same ports and data; one that exits on its own is restarted, as a supervisor would, and counted.
 */

const root = resolve(__dirname, '../..');
const REPLICAS = 2;
const API_PROCESSES = Array.from({ length: REPLICAS }, (_, i) => `api-${i + 1}`);
const WORKER_PROCESSES = Array.from({ length: REPLICAS }, (_, i) => `worker-${i + 1}`);
/**
 * What the crash campaign kills in turn: one API replica, one worker, the Temporal server (`temporal`: its node 1,
 * `temporal-1`; the other node serves meanwhile), PostgreSQL.
 */
export const CLUSTER_COMPONENTS = ['postgres', 'temporal', 'worker-1', 'api-1'] as const;
/** `temporal` (the crash campaign's name) is node 1. */
const processName = (component: string) => (component === 'temporal' ? 'temporal-1' : component);

export interface ClusterStackOptions {
  /** Names the PostgreSQL cluster (`.data/postgres-<name>`) and the folder of logs and configuration (`.data/<name>`). */
  name: string;
  say?: (message: string) => void;
  /** Extra environment for the workers and the APIs. */
  env?: Record<string, string>;
  /** Puts a proxy between a worker or an API (`worker-1`, `worker-2`, `api-1`, `api-2`) and PostgreSQL or Temporal. */
  upstream?: Upstream;
  /**
   * PostgreSQL with a streaming standby (`.data/postgres-<name>-standby`, made afresh with the primary), `sync`
   * (the primary's commits wait for it) or `async`, and every client (workers, APIs, the Temporal server) going
   * through the PostgreSQL front (HAProxy in TCP mode, process `pg-front`, src/dev/postgres-front.ts) that
   * `npm run failover -- <stack.dir>` moves to the standby. Unset: one PostgreSQL, reached directly.
   */
  standby?: 'sync' | 'async';
  /**
   * How often the server checks a draining Worker Deployment version, and how long a version counts as draining
   * after it stopped being current (deploy/temporal/dynamic-config.yaml: 30s and 1m), e.g. `{ refresh: '5s', grace: '5s' }`.
   */
  drainage?: { refresh: string; grace: string };
  /** Temporal server nodes in one ring (`temporal-1`, …), behind HAProxy (`temporal-lb`), as start:cluster runs them: 2 by default. */
  temporalNodes?: number;
  /**
   * Starts on an existing PostgreSQL cluster (`.data/<clusterName>`, a restored one) and its payments database
   * instead of fresh ones: nothing is dropped or created; pending migrations and Temporal's schemas are applied.
   */
  existingPostgres?: { clusterName: string; database: string };
  /** The workers' and APIs' master key (a restored database needs the one it was sealed with); a new one by default. */
  masterKeyBase64?: string;
}

interface Supervised {
  proc?: ChildProcess;
  /** Set while the stack itself kills or stops the process, so its exit is not a crash. */
  expectingExit: boolean;
}

interface Ports {
  postgres: number;
  haproxy: number;
  temporalLb: number;
  api: Record<string, number>;
  apiMetrics: Record<string, number>;
  workerMetrics: Record<string, number>;
  sdkMetrics: Record<string, number>;
}

export class ClusterStack implements ProofStack {
  readonly dir: string;
  readonly components = CLUSTER_COMPONENTS;
  readonly apiProcesses = API_PROCESSES;
  readonly workerProcesses = WORKER_PROCESSES;
  readonly unplannedExits: Record<string, number>;
  /** `temporal-1`, `temporal-2`, …: the Temporal server's nodes. */
  readonly temporalProcesses: readonly string[];
  readonly masterKeyBase64: string;
  private readonly say: (message: string) => void;
  private readonly processes = new Map<string, Supervised>();
  private readonly upstreams = new Map<string, { databaseUrl: string; temporalAddress: string }>();
  private stopping = false;
  private ports!: Ports;
  private postgres!: KillablePostgres;
  private temporalNodes!: TemporalServer[];
  private dbUrl = '';
  private standby?: KillablePostgres;
  private frontPort = 0;
  /** Workers of another compiled build than dist/ (startWorkerBuild): their folder and their WORKER_BUILD_ID. */
  private readonly workerBuilds = new Map<string, { dir: string; buildId: string }>();

  private constructor(private readonly options: ClusterStackOptions) {
    this.dir = join(root, '.data', options.name);
    this.say = options.say ?? ((m) => process.stderr.write(`[cluster-stack] ${m}\n`));
    this.temporalProcesses = Array.from({ length: options.temporalNodes ?? 2 }, (_, i) => `temporal-${i + 1}`);
    this.unplannedExits = Object.fromEntries(
      ['postgres', 'temporal-lb', ...this.temporalProcesses, 'haproxy', ...WORKER_PROCESSES, ...API_PROCESSES].map((name) => [name, 0]),
    );
    this.masterKeyBase64 = options.masterKeyBase64 ?? randomBytes(32).toString('base64');
  }

  /** A fresh stack: a new payments database and Temporal's, the server, workers, APIs, HAProxy. */
  static async start(options: ClusterStackOptions): Promise<ClusterStack> {
    const stack = new ClusterStack(options);
    // A driver stopped by Ctrl-C or SIGTERM takes its processes with it.
    const onSignal = (signal: NodeJS.Signals) => void stack.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      await stack.boot();
    } catch (err) {
      await stack.stop();
      throw err;
    }
    return stack;
  }

  get databaseUrl(): string {
    return this.dbUrl;
  }

  /** HAProxy's in front of the Temporal nodes' frontends: what the workers and the APIs use. */
  /** The primary PostgreSQL, reached directly (not through the front). */
  get primaryPostgres(): KillablePostgres {
    return this.postgres;
  }

  /** The standby PostgreSQL (with `standby` set), reached directly. */
  get standbyPostgres(): KillablePostgres | undefined {
    return this.standby;
  }

  /** An API replica's own address (`api-1`, `api-2`), not HAProxy's. */
  replicaUrl(name: string): string {
    return `http://127.0.0.1:${this.ports.api[name]}`;
  }

  get temporalAddress(): string {
    return `127.0.0.1:${this.ports.temporalLb}`;
  }

  /** Each Temporal node's own frontend (`temporal-1` first), for asking one node about the ring. */
  get temporalNodeAddresses(): string[] {
    return this.temporalNodes.map((node) => node.address);
  }

  /** Each Temporal node's history service address (`temporal-1` first): the ring's name for it as a shard owner. */
  get temporalHistoryHosts(): string[] {
    return this.temporalNodes.map((node) => `127.0.0.1:${node.ports.history}`);
  }

  /** HAProxy's address: what partners use. */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.ports.haproxy}`;
  }

  get baseUrl(): string {
    return `${this.apiUrl}${basePath('')}`;
  }

  /** HAProxy's runtime API (its servers are api1, api2… of backend api_replicas). */
  get haproxySocket(): string {
    return haproxySocketOf(join(this.dir, 'haproxy.cfg'));
  }

  /** An API replica's own readiness URL (not through HAProxy). */
  apiReadyUrl(name: string): string {
    return `http://127.0.0.1:${this.ports.api[name]}/ready`;
  }

  /** The workers started, in order, with the Worker Deployment version they poll as (from their environment). */
  workers(): { name: string; running: boolean; deploymentName?: string; buildId?: string }[] {
    return [...WORKER_PROCESSES, ...this.workerBuilds.keys()].map((name) => {
      const proc = this.processes.get(name)?.proc;
      const deploymentName = this.options.env?.WORKER_DEPLOYMENT_NAME;
      const buildId = this.workerBuilds.get(name)?.buildId ?? this.options.env?.WORKER_BUILD_ID;
      return {
        name,
        running: proc !== undefined && proc.exitCode === null && proc.signalCode === null,
        ...(deploymentName && buildId ? { deploymentName, buildId } : {}),
      };
    });
  }

  /** Stops a replica as a deploy does (SIGTERM, not counted as a crash) and starts it again on the same ports. */
  async restartGracefully(name: string): Promise<void> {
    await this.stopGracefully(name);
    await this.startComponent(name);
  }

  /** Stops a replica for good (SIGTERM: an API ends its requests, a worker its tasks); not counted as a crash. */
  async stopGracefully(name: string): Promise<void> {
    const supervised = this.processes.get(name);
    if (!supervised?.proc || supervised.proc.exitCode !== null || supervised.proc.signalCode !== null) return;
    supervised.expectingExit = true;
    const exited = this.exited(name);
    supervised.proc.kill('SIGTERM');
    await exited;
  }

  /** Starts as many workers as the stack runs from another compiled build (`dir` holds worker/main.js), versioned as `buildId`. */
  async startWorkerBuild(buildId: string, dir: string): Promise<string[]> {
    const first = WORKER_PROCESSES.length + this.workerBuilds.size + 1;
    const names = WORKER_PROCESSES.map((_, i) => `worker-${first + i}`);
    const ports = await freePorts(2 * names.length);
    for (const name of names) {
      this.workerBuilds.set(name, { dir, buildId });
      this.ports.workerMetrics[name] = ports.shift()!;
      this.ports.sdkMetrics[name] = ports.shift()!;
      this.unplannedExits[name] = 0;
    }
    await Promise.all(names.map((name) => this.startComponent(name)));
    return names;
  }

  private async boot(): Promise<void> {
    if (!existsSync(join(root, 'dist/worker/main.js'))) throw new Error('no compiled build in dist/: run npm run build (bin/chaos does)');
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
    const ports = await freePorts(3 + 4 * REPLICAS + (this.options.standby ? 2 : 0));
    const next = () => ports.shift()!;
    const each = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, next()]));
    this.ports = {
      postgres: next(),
      haproxy: next(),
      temporalLb: next(),
      api: each(API_PROCESSES),
      apiMetrics: each(API_PROCESSES),
      workerMetrics: each(WORKER_PROCESSES),
      sdkMetrics: each(WORKER_PROCESSES),
    };
    const existing = this.options.existingPostgres;
    this.postgres = new KillablePostgres(existing?.clusterName ?? `postgres-${this.options.name}`, this.ports.postgres);
    if (this.options.standby) {
      // Made afresh: an earlier run's failover left its primary fenced and its standby promoted.
      this.standby = new KillablePostgres(`postgres-${this.options.name}-standby`, next());
      this.frontPort = next();
      this.postgres.remove();
      this.standby.remove();
    }
    // A cluster left running by an interrupted earlier run would hold another port.
    this.postgres.stop();
    this.postgres.start();
    const database = existing?.database ?? `proof_${Date.now()}`;
    const admin = new PgClient({ connectionString: this.postgres.url('postgres') });
    await admin.connect();
    // A fresh start: an earlier run's workflows (Temporal's databases) would still be running, and be judged.
    const { rows: stale } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname in ('temporal', 'temporal_visibility') or datname like 'proof\\_%'`,
    );
    if (!existing) for (const { datname } of stale) await admin.query(`drop database "${datname}" with (force)`);
    if (!existing) await admin.query(`create database ${database}`);
    await admin.end();
    this.dbUrl = this.postgres.url(database);
    let temporalPostgresUrl = this.postgres.url('postgres');
    if (this.standby) {
      this.say(`making the standby (${this.options.standby} replication) and the PostgreSQL front`);
      this.standby.makeStandbyOf(this.postgres.clusterName, this.options.standby!);
      writePostgresFront(root, this.dir, {
        port: this.frontPort,
        socket: join(this.dir, 'postgres-front.sock'),
        primary: { name: this.postgres.clusterName, port: this.postgres.port },
        standby: { name: this.standby.clusterName, port: this.standby.port },
      });
      this.unplannedExits['pg-front'] = 0;
      await this.startComponent('pg-front');
      this.dbUrl = withPort(this.dbUrl, this.frontPort);
      temporalPostgresUrl = withPort(temporalPostgresUrl, this.frontPort);
    }
    // Migrated once here, as start:cluster does, rather than by four processes at once.
    const orm = await openOrm(this.dbUrl, { poolMax: 2 });
    await migrate(orm, this.dbUrl);
    await orm.close();

    this.say(`starting the Temporal server: ${this.temporalProcesses.length} nodes in one ring (PostgreSQL persistence and visibility), HAProxy in front`);
    this.temporalNodes = await prepareTemporalNodes({
      postgresUrl: temporalPostgresUrl,
      dataDir: this.dir,
      nodes: this.temporalProcesses.length,
      sharedFrontendPort: this.ports.temporalLb,
      say: this.say,
    });
    if (this.options.drainage) {
      // Every node's own copy of deploy/temporal/dynamic-config.yaml.
      const { refresh, grace } = this.options.drainage;
      for (const entry of readdirSync(this.dir).filter((name) => /^temporal(-\d+)?$/.test(name))) {
        const file = join(this.dir, entry, 'dynamic-config.yaml');
        if (!existsSync(file)) continue;
        const text = readFileSync(file, 'utf8')
          .replace(/(VersionDrainageStatusRefreshInterval:\n\s+- value: )\S+/, `$1${refresh}`)
          .replace(/(VersionDrainageStatusVisibilityGracePeriod:\n\s+- value: )\S+/, `$1${grace}`);
        writeFileSync(file, text);
      }
    }
    writeTemporalLbConfig(
      root,
      join(this.dir, 'temporal-haproxy.cfg'),
      this.ports.temporalLb,
      this.temporalNodes.map((node) => node.ports.frontend),
    );
    await this.startComponent('temporal-lb');
    // One after the other: node 1 creates the cluster's metadata, each next one joins the ring of those before it.
    for (const [i, name] of this.temporalProcesses.entries()) await this.startNode(name, i + 1);
    this.say('starting 2 workers and 2 APIs (compiled build), then HAProxy');
    await Promise.all(WORKER_PROCESSES.map((name) => this.startComponent(name)));
    await Promise.all(API_PROCESSES.map((name) => this.startComponent(name)));
    writeHaproxyConfig(
      root,
      join(this.dir, 'haproxy.cfg'),
      this.ports.haproxy,
      API_PROCESSES.map((name) => this.ports.api[name]!),
    );
    await this.startComponent('haproxy');
    await this.waitUntilReady();
  }

  kill(component: string): void {
    if (component === 'postgres') return this.postgres.kill();
    const supervised = this.processes.get(processName(component));
    if (!supervised?.proc || supervised.proc.exitCode !== null || supervised.proc.signalCode !== null) return;
    supervised.expectingExit = true;
    supervised.proc.kill('SIGKILL');
  }

  /** The process id of a running process (`temporal-1`, `temporal-lb`, `haproxy`, an API or a worker); undefined while it is not running. */
  pid(name: string): number | undefined {
    const proc = this.processes.get(name)?.proc;
    return proc && proc.exitCode === null && proc.signalCode === null ? proc.pid : undefined;
  }

  async restart(component: string): Promise<void> {
    if (component !== 'postgres') await this.exited(processName(component));
    await this.startComponent(processName(component));
  }

  /** Stops everything in order: HAProxy, APIs, workers, the Temporal nodes and HAProxy in front of them, the PostgreSQL front, PostgreSQL. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const name of [
      'haproxy',
      ...API_PROCESSES,
      ...this.workerBuilds.keys(),
      ...WORKER_PROCESSES,
      ...[...this.temporalProcesses].reverse(),
      'temporal-lb',
      'pg-front',
    ]) {
      const supervised = this.processes.get(name);
      const proc = supervised?.proc;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) continue;
      supervised.expectingExit = true;
      proc.kill('SIGINT');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await this.exited(name);
      clearTimeout(timer);
    }
    this.postgres?.stop();
    this.standby?.stop();
  }

  async counter(name: string, metric: string, labels: Record<string, RegExp> = {}): Promise<number | undefined> {
    const port = this.ports.apiMetrics[name] ?? this.ports.workerMetrics[name];
    if (port === undefined) throw new Error(`no metrics for ${name}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2_000) });
      if (!res.ok) return undefined;
      return sumOfCounter(await res.text(), metric, labels);
    } catch {
      return undefined;
    }
  }

  /** Until every API replica's readiness check answers 200, and HAProxy's too (it sends partners to them). */
  async waitUntilReady(timeoutMs = 180_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const urls = [...API_PROCESSES.map((name) => `http://127.0.0.1:${this.ports.api[name]}/ready`), `${this.apiUrl}/ready`];
    for (const url of urls) {
      for (;;) {
        if (await answers200(url)) break;
        if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (logs: ${this.dir})`);
        await sleep(250);
      }
    }
  }

  sandboxPartner(name: string, webhookEndpoint: string): Promise<Partner> {
    return createSandboxPartner(this.databaseUrl, this.masterKeyBase64, name, webhookEndpoint);
  }

  private exited(name: string): Promise<void> {
    const proc = this.processes.get(name)?.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
    return new Promise((done) => proc.once('exit', () => done()));
  }

  private async startComponent(name: string): Promise<void> {
    if (name === 'postgres') return this.postgres.start();
    const node = this.temporalProcesses.indexOf(name);
    if (node >= 0) return this.startNode(name);
    if (name === 'pg-front') {
      this.spawnSupervised('pg-front', requiredEnv('HAPROXY'), ['-db', '-f', frontConfigFile(this.dir)], process.env);
      await waitForPort(this.frontPort, 30_000);
      return;
    }
    if (name === 'haproxy' || name === 'temporal-lb') {
      this.spawnSupervised(
        name,
        requiredEnv('HAPROXY'),
        ['-db', '-f', join(this.dir, name === 'haproxy' ? 'haproxy.cfg' : 'temporal-haproxy.cfg')],
        process.env,
      );
      return;
    }
    const isApi = name.startsWith('api-');
    const upstream = await this.upstreamOf(name);
    const env = {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: upstream.databaseUrl,
      TEMPORAL_ADDRESS: upstream.temporalAddress,
      MASTER_KEY: this.masterKeyBase64,
      PUBLIC_BASE_URL: this.apiUrl,
      ...(isApi
        ? { PORT: String(this.ports.api[name]), METRICS_PORT: String(this.ports.apiMetrics[name]) }
        : { WORKER_METRICS_PORT: String(this.ports.workerMetrics[name]), TEMPORAL_METRICS_ADDRESS: `127.0.0.1:${this.ports.sdkMetrics[name]}` }),
      // The worker's "worker started" line (info) tells the stack it is back.
      LOG_LEVEL: isApi ? (process.env.LOG_LEVEL ?? 'warn') : 'info',
      // The campaign's receivers listen on this machine (sandbox platforms only).
      WEBHOOK_ALLOW_LOOPBACK: '1',
      ...this.options.env,
    };
    const build = this.workerBuilds.get(name);
    const logFrom = logSize(join(this.dir, `${name}.log`));
    const main = build ? join(build.dir, 'worker/main.js') : join(root, isApi ? 'dist/src/api/main.js' : 'dist/worker/main.js');
    this.spawnSupervised(name, process.execPath, [main], build ? { ...env, WORKER_BUILD_ID: build.buildId } : env);
    if (isApi) await this.waitFor(`http://127.0.0.1:${this.ports.api[name]}/health`, name);
    else await this.waitForLog(name, logFrom, '"msg":"worker started"');
  }

  /** Starts Temporal node `name` (again); resolves once it answers and sees `ringSize` history hosts (default: all nodes). */
  private async startNode(name: string, ringSize?: number): Promise<void> {
    const node = this.temporalNodes[this.temporalProcesses.indexOf(name)]!;
    const starting = node.start(ringSize);
    // Supervised from its spawn (start() sets proc at once): a node that dies while joining is restarted too.
    this.supervise(name, node.proc!);
    await starting;
  }

  private async upstreamOf(name: string): Promise<{ databaseUrl: string; temporalAddress: string }> {
    let found = this.upstreams.get(name);
    if (!found) {
      const through = this.options.upstream;
      const temporalPort = this.ports.temporalLb;
      found = through
        ? {
            databaseUrl: withPort(this.dbUrl, await through(name, 'postgres', this.ports.postgres)),
            temporalAddress: `127.0.0.1:${await through(name, 'temporal', temporalPort)}`,
          }
        : { databaseUrl: this.dbUrl, temporalAddress: this.temporalAddress };
      this.upstreams.set(name, found);
    }
    return found;
  }

  private spawnSupervised(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): void {
    const log = createWriteStream(join(this.dir, `${name}.log`), { flags: 'a' });
    const proc = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout?.pipe(log, { end: false });
    proc.stderr?.pipe(log, { end: false });
    this.supervise(name, proc);
  }

  /** Watches a process the stack started: an exit the stack did not cause is restarted, as a supervisor would, and counted. */
  private supervise(name: string, proc: ChildProcess): void {
    const supervised = this.processes.get(name) ?? { expectingExit: false };
    this.processes.set(name, supervised);
    supervised.proc = proc;
    supervised.expectingExit = false;
    proc.once('exit', (code, signal) => {
      if (this.stopping || supervised.expectingExit) return;
      this.unplannedExits[name] = (this.unplannedExits[name] ?? 0) + 1;
      this.say(`${name} exited on its own (${signal ?? code}); restarting it`);
      setTimeout(() => {
        if (!this.stopping) this.startComponent(name).catch((err: unknown) => this.say(`restarting ${name} failed: ${String(err)}`));
      }, 1_000);
    });
  }

  private async waitFor(url: string, name: string, timeoutMs = 180_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await answers200(url))) {
      if (Date.now() > deadline) throw new Error(`${name} did not answer ${url} within ${timeoutMs} ms (see ${join(this.dir, `${name}.log`)})`);
      await sleep(200);
    }
  }

  private async waitForLog(name: string, from: number, needle: string, timeoutMs = 180_000): Promise<void> {
    const file = join(this.dir, `${name}.log`);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (existsSync(file) && readFileSync(file).subarray(from).toString('utf8').includes(needle)) return;
      await sleep(200);
    }
    throw new Error(`${name} did not log ${needle} within ${timeoutMs} ms (see ${file})`);
  }
}

async function answers200(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(3_000) })).ok;
  } catch {
    return false;
  }
}

function logSize(file: string): number {
  return existsSync(file) ? readFileSync(file).length : 0;
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (bin/chaos sets it)`);
  return value;
}

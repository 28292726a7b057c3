import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client as PgClient } from 'pg';
import { basePath } from '../../src/config';
import { createToken } from '../../src/contexts/platforms/services/platforms';
import { createPlatform } from '../../src/contexts/platform-setup/services/platform-setup';
import { openOrm } from '../../src/db/orm';
import { parseMasterKey } from '../../src/security/secrets';
import { freePorts, waitForPort } from '../../src/dev/ports';

/**
 * The whole service as separate processes, the way `npm start` runs it, on ports of its own:
 * PostgreSQL (a project-owned cluster of this stack's own, so that it can be killed), the Temporal
 * dev server (SQLite file, headless), the worker and the API. Each component can be killed with
 * SIGKILL and restarted on the same ports and data; a worker or API that exits on its own is
 * restarted by the stack, as a process supervisor would, and counted.
 */

export const COMPONENTS = ['postgres', 'temporal', 'worker', 'api'] as const;
export type Component = (typeof COMPONENTS)[number];

const root = resolve(__dirname, '../..');

export interface StackOptions {
  /** Names the PostgreSQL cluster (`.data/postgres-<name>`) and the folder of logs and SQLite (`.data/<name>`). */
  name: string;
  say?: (message: string) => void;
  /** Extra environment for the worker and the API. */
  env?: Record<string, string>;
  /**
   * Where a service process reaches PostgreSQL or Temporal: given the real port, the port it should use
   * instead (a proxy's, on 127.0.0.1). Called once per process and upstream, before the process first
   * starts. The stack's own connections (its admin connection, the verdict's) stay direct.
   */
  upstream?: (process: string, service: 'postgres' | 'temporal', port: number) => Promise<number>;
}

interface Supervised {
  proc?: ChildProcess;
  /** Set while the stack itself kills or stops the process, so its exit is not a crash. */
  expectingExit: boolean;
  unplannedExits: number;
}

export class Stack {
  readonly dir: string;
  readonly unplannedExits: Record<Component, number> = { postgres: 0, temporal: 0, worker: 0, api: 0 };
  private readonly say: (message: string) => void;
  private readonly processes = new Map<'temporal' | 'worker' | 'api', Supervised>();
  private stopping = false;
  private ports!: { postgres: number; temporal: number; api: number; apiMetrics: number; workerMetrics: number; sdkMetrics: number };
  private database = '';
  private dbUrl = '';
  private readonly masterKey = randomBytes(32).toString('base64');
  /** The ports each service process uses for PostgreSQL and Temporal (the real ones, or the `upstream` option's). */
  private readonly upstreams = new Map<'worker' | 'api', { postgres: number; temporal: number }>();

  private constructor(private readonly options: StackOptions) {
    this.dir = join(root, '.data', options.name);
    this.say = options.say ?? ((m) => process.stderr.write(`[stack] ${m}\n`));
  }

  /** A fresh stack: a new database, a new Temporal SQLite file, then worker and API. */
  static async start(options: StackOptions): Promise<Stack> {
    const stack = new Stack(options);
    // A driver stopped by Ctrl-C or SIGTERM takes its processes with it: an orphaned API or
    // worker would keep running against the next campaign's ports and data.
    const onSignal = (signal: NodeJS.Signals) => void stack.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    await stack.boot();
    return stack;
  }

  get databaseUrl(): string {
    return this.dbUrl;
  }

  /** The cluster's URL (with its generated password) for one of its databases. */
  private clusterUrl(database: string): string {
    const result = spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'url', this.clusterName, String(this.ports.postgres), database], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`no URL for PostgreSQL ${this.clusterName}: ${result.stderr}`);
    return result.stdout.trim();
  }

  get temporalAddress(): string {
    return `127.0.0.1:${this.ports.temporal}`;
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.ports.api}`;
  }

  /** The versioned base of the API's routes. */
  get baseUrl(): string {
    return `${this.apiUrl}${basePath('')}`;
  }

  get masterKeyBase64(): string {
    return this.masterKey;
  }

  private async boot(): Promise<void> {
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
    const [postgres, temporal, api, apiMetrics, workerMetrics, sdkMetrics] = await freePorts(6);
    this.ports = { postgres: postgres!, temporal: temporal!, api: api!, apiMetrics: apiMetrics!, workerMetrics: workerMetrics!, sdkMetrics: sdkMetrics! };
    this.database = `proof_${Date.now()}`;
    // A cluster left running by an interrupted earlier run would hold another port.
    spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'stop', this.clusterName], { stdio: 'ignore' });
    await this.startComponent('postgres');
    this.dbUrl = this.clusterUrl(this.database);
    const admin = new PgClient({ connectionString: this.clusterUrl('postgres') });
    await admin.connect();
    await admin.query(`create database ${this.database}`);
    await admin.end();
    for (const component of ['temporal', 'worker', 'api'] as const) await this.startComponent(component);
  }

  /** SIGKILL, no warning: PostgreSQL's postmaster and every backend, or the one process. */
  kill(component: Component): void {
    if (component === 'postgres') {
      const pid = this.postgresPid();
      if (pid === undefined) return;
      const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean)
        .map(Number);
      for (const p of [pid, ...children]) spawnSync('kill', ['-9', String(p)]);
      // Where nobody reaps orphans (a container's init), the dead postmaster stays a zombie that
      // pg_ctl and the next postmaster take for a running server: wait for the processes to die,
      // then drop the lock files it left (the data directory's and the Unix socket's).
      while ([pid, ...children].some(isAlive)) spawnSync('sleep', ['0.05']);
      for (const lockFile of this.postgresLockFiles()) rmSync(lockFile, { force: true });
      return;
    }
    const supervised = this.processes.get(component);
    if (!supervised?.proc || supervised.proc.exitCode !== null || supervised.proc.signalCode !== null) return;
    supervised.expectingExit = true;
    supervised.proc.kill('SIGKILL');
  }

  /** Starts a component again on its ports and data; resolves once it is ready. */
  async restart(component: Component): Promise<void> {
    if (component !== 'postgres') await this.exited(component);
    await this.startComponent(component);
  }

  /** Stops everything in order: API, worker, Temporal, PostgreSQL. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const component of ['api', 'worker', 'temporal'] as const) {
      const supervised = this.processes.get(component);
      const proc = supervised?.proc;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) continue;
      supervised.expectingExit = true;
      proc.kill('SIGINT');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await this.exited(component);
      clearTimeout(timer);
    }
    spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'stop', this.clusterName], { stdio: 'ignore' });
  }

  private get clusterName(): string {
    return `postgres-${this.options.name}`;
  }

  private postgresPid(): number | undefined {
    const pidFile = join(root, '.data', this.clusterName, 'postmaster.pid');
    if (!existsSync(pidFile)) return undefined;
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  }

  /** postmaster.pid names the port (line 4) and the socket folder (line 5) of its socket lock. */
  private postgresLockFiles(): string[] {
    const pidFile = join(root, '.data', this.clusterName, 'postmaster.pid');
    if (!existsSync(pidFile)) return [];
    const [, , , port, socketDir] = readFileSync(pidFile, 'utf8').split('\n');
    const socketLock = port && socketDir ? [join(socketDir, `.s.PGSQL.${port}.lock`)] : [];
    return [pidFile, ...socketLock];
  }

  private exited(component: 'temporal' | 'worker' | 'api'): Promise<void> {
    const proc = this.processes.get(component)?.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
    return new Promise((done) => proc.once('exit', () => done()));
  }

  private async startComponent(component: Component): Promise<void> {
    switch (component) {
      case 'postgres': {
        const result = spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'start', this.clusterName, String(this.ports.postgres)], { encoding: 'utf8' });
        if (result.status !== 0) throw new Error(`PostgreSQL did not start: ${result.stderr}`);
        return;
      }
      case 'temporal': {
        const args = [
          'server',
          'start-dev',
          '--headless',
          '--ip',
          '127.0.0.1',
          '--port',
          String(this.ports.temporal),
          '--db-filename',
          join(this.dir, 'temporal.sqlite'),
          '--namespace',
          'default',
          '--log-level',
          'error',
        ];
        this.spawnSupervised('temporal', requiredEnv('TEMPORAL_CLI_PATH'), args, process.env);
        await waitForPort(this.ports.temporal, 60_000);
        return;
      }
      case 'worker':
      case 'api': {
        const upstream = await this.upstreamPorts(component);
        const env = {
          ...process.env,
          DATABASE_URL: withPort(this.databaseUrl, upstream.postgres),
          TEMPORAL_ADDRESS: `127.0.0.1:${upstream.temporal}`,
          MASTER_KEY: this.masterKey,
          PORT: String(this.ports.api),
          // Metrics on ports of the stack's own: a running `npm start` keeps the default ones.
          METRICS_PORT: String(this.ports.apiMetrics),
          WORKER_METRICS_PORT: String(this.ports.workerMetrics),
          TEMPORAL_METRICS_ADDRESS: `127.0.0.1:${this.ports.sdkMetrics}`,
          // The worker's "worker started" line (info) tells the stack it is back.
          LOG_LEVEL: component === 'worker' ? 'info' : (process.env.LOG_LEVEL ?? 'warn'),
          // The campaign's receivers listen on this machine (sandbox platforms only).
          WEBHOOK_ALLOW_LOOPBACK: '1',
          ...this.options.env,
        };
        // The tsx loader keeps the service in this very process (the tsx CLI would fork a child a SIGKILL misses).
        const script = component === 'api' ? 'src/api/main.ts' : 'worker/main.ts';
        const logFrom = this.logSize(component);
        this.spawnSupervised(component, process.execPath, ['--import', 'tsx', script], env);
        if (component === 'api') await this.waitForHealth();
        else await this.waitForLog(component, logFrom, '"msg":"worker started"');
        return;
      }
    }
  }

  private async upstreamPorts(component: 'worker' | 'api'): Promise<{ postgres: number; temporal: number }> {
    let ports = this.upstreams.get(component);
    if (!ports) {
      const { upstream } = this.options;
      ports = upstream
        ? { postgres: await upstream(component, 'postgres', this.ports.postgres), temporal: await upstream(component, 'temporal', this.ports.temporal) }
        : { postgres: this.ports.postgres, temporal: this.ports.temporal };
      this.upstreams.set(component, ports);
    }
    return ports;
  }

  private spawnSupervised(component: 'temporal' | 'worker' | 'api', command: string, args: string[], env: NodeJS.ProcessEnv): void {
    const supervised = this.processes.get(component) ?? { expectingExit: false, unplannedExits: 0 };
    this.processes.set(component, supervised);
    const log = createWriteStream(join(this.dir, `${component}.log`), { flags: 'a' });
    const proc = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout?.pipe(log, { end: false });
    proc.stderr?.pipe(log, { end: false });
    supervised.proc = proc;
    supervised.expectingExit = false;
    proc.once('exit', (code, signal) => {
      if (this.stopping || supervised.expectingExit) return;
      // A crash the stack did not cause: restart it, as a supervisor would, and count it.
      this.unplannedExits[component]++;
      this.say(`${component} exited on its own (${signal ?? code}); restarting it`);
      setTimeout(() => {
        if (!this.stopping) this.startComponent(component).catch((err: unknown) => this.say(`restarting ${component} failed: ${String(err)}`));
      }, 1_000);
    });
  }

  private logSize(component: string): number {
    const file = join(this.dir, `${component}.log`);
    return existsSync(file) ? readFileSync(file).length : 0;
  }

  private async waitForLog(component: string, from: number, needle: string, timeoutMs = 180_000): Promise<void> {
    const file = join(this.dir, `${component}.log`);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (existsSync(file) && readFileSync(file).subarray(from).toString('utf8').includes(needle)) return;
      await sleep(200);
    }
    throw new Error(`${component} did not log ${needle} within ${timeoutMs} ms (see ${file})`);
  }

  /**
   * A platform of this stack's own (USD and EUR, a regulated institution, so that every route is
   * open to it) with a sandbox token: the partner a driver acts as, and its Authorization header.
   */
  async sandboxPartner(name: string, webhookEndpoint: string): Promise<{ platformId: string; authorization: string }> {
    const orm = await openOrm(this.databaseUrl, { poolMax: 2 });
    try {
      const em = orm.em.fork();
      const platform = await createPlatform(em, { name, currencies: ['USD', 'EUR'], webhookEndpoint, isRegulatedFinancialInstitution: true });
      const token = await createToken(em, parseMasterKey(this.masterKey), platform.id, 'SANDBOX');
      return { platformId: platform.id, authorization: `Basic ${Buffer.from(`${token.tokenId}:${token.clientSecret}`).toString('base64')}` };
    } finally {
      await orm.close();
    }
  }

  /**
   * The sum of a Prometheus counter the API or the worker serves, over the series whose labels
   * match `labels` (regular expressions); undefined while the process does not answer. Counters
   * start again from 0 when their process restarts.
   */
  async counter(component: 'api' | 'worker', name: string, labels: Record<string, RegExp> = {}): Promise<number | undefined> {
    const port = component === 'api' ? this.ports.apiMetrics : this.ports.workerMetrics;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2_000) });
      if (!res.ok) return undefined;
      return sumOfCounter(await res.text(), name, labels);
    } catch {
      return undefined;
    }
  }

  /**
   * Until the API's readiness check (PostgreSQL and Temporal reachable) answers 200; an API
   * without one is taken as ready once it answers /health.
   */
  async waitUntilReady(timeoutMs = 180_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        const res = await fetch(`${this.apiUrl}/ready`, { signal: AbortSignal.timeout(3_000) });
        if (res.ok) return;
        if (res.status === 404) return this.waitForHealth(deadline - Date.now());
      } catch {
        // down or restarting
      }
      await sleep(250);
    }
    throw new Error(`the service was not ready within ${timeoutMs} ms`);
  }

  private async waitForHealth(timeoutMs = 180_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        const res = await fetch(`${this.apiUrl}/health`, { signal: AbortSignal.timeout(2_000) });
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await sleep(200);
    }
    throw new Error(`the API did not answer /health within ${timeoutMs} ms (see ${join(this.dir, 'api.log')})`);
  }
}

/** Sums the samples of `name` in Prometheus text whose labels match every pattern given. */
export function sumOfCounter(text: string, name: string, labels: Record<string, RegExp> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? ([^ ]+)/.exec(line);
    if (!sample || sample[1] !== name) continue;
    const found = Object.fromEntries([...(sample[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([label, pattern]) => pattern.test(found[label] ?? ''))) sum += Number(sample[3]);
  }
  return sum;
}

/** The same database URL on another port of 127.0.0.1. */
function withPort(databaseUrl: string, port: number): string {
  // Replaced in the text, not through URL, which would re-encode the generated password.
  const moved = databaseUrl.replace(/@127\.0\.0\.1:\d+\//, `@127.0.0.1:${port}/`);
  if (moved === databaseUrl && !databaseUrl.includes(`@127.0.0.1:${port}/`)) throw new Error('the database URL names no 127.0.0.1 port');
  return moved;
}

/** Running, not dead and not a zombie. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (the bin/ scripts set it)`);
  return value;
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client as PgClient } from 'pg';
import { basePath } from '../../src/config';
import { freePorts, waitForPort } from '../../src/dev/ports';
import { KillablePostgres } from './killable-postgres';
import { createSandboxPartner, withPort, type Partner, type ProofStack, type Upstream } from './proof-stack';

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
  /** Puts a proxy between the worker or the API (process names `worker`, `api`) and PostgreSQL or Temporal. */
  upstream?: Upstream;
}

interface Supervised {
  proc?: ChildProcess;
  /** Set while the stack itself kills or stops the process, so its exit is not a crash. */
  expectingExit: boolean;
  unplannedExits: number;
}

export class Stack implements ProofStack {
  readonly dir: string;
  readonly components = COMPONENTS;
  readonly apiProcesses = ['api'] as const;
  readonly workerProcesses = ['worker'] as const;
  readonly unplannedExits: Record<Component, number> = { postgres: 0, temporal: 0, worker: 0, api: 0 };
  private readonly say: (message: string) => void;
  private readonly processes = new Map<'temporal' | 'worker' | 'api', Supervised>();
  private stopping = false;
  private ports!: { postgres: number; temporal: number; api: number; apiMetrics: number; workerMetrics: number; sdkMetrics: number };
  private database = '';
  private dbUrl = '';
  private postgres!: KillablePostgres;
  /** Each service process's DATABASE_URL and TEMPORAL_ADDRESS, through the `upstream` option's proxies if given. */
  private readonly upstreams = new Map<'worker' | 'api', { databaseUrl: string; temporalAddress: string }>();
  private readonly masterKey = randomBytes(32).toString('base64');

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
    this.postgres = new KillablePostgres(`postgres-${this.options.name}`, this.ports.postgres);
    // A cluster left running by an interrupted earlier run would hold another port.
    this.postgres.stop();
    await this.startComponent('postgres');
    this.dbUrl = this.postgres.url(this.database);
    const admin = new PgClient({ connectionString: this.postgres.url('postgres') });
    await admin.connect();
    await admin.query(`create database ${this.database}`);
    await admin.end();
    for (const component of ['temporal', 'worker', 'api'] as const) await this.startComponent(component);
  }

  /** SIGKILL, no warning: PostgreSQL's postmaster and every backend, or the one process. */
  kill(component: Component): void {
    if (component === 'postgres') return this.postgres.kill();
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
    this.postgres?.stop();
  }

  private exited(component: 'temporal' | 'worker' | 'api'): Promise<void> {
    const proc = this.processes.get(component)?.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
    return new Promise((done) => proc.once('exit', () => done()));
  }

  private async startComponent(component: Component): Promise<void> {
    switch (component) {
      case 'postgres':
        return this.postgres.start();
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
        const upstream = await this.upstreamOf(component);
        const env = {
          ...process.env,
          DATABASE_URL: upstream.databaseUrl,
          TEMPORAL_ADDRESS: upstream.temporalAddress,
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

  private async upstreamOf(component: 'worker' | 'api'): Promise<{ databaseUrl: string; temporalAddress: string }> {
    let found = this.upstreams.get(component);
    if (!found) {
      const through = this.options.upstream;
      found = through
        ? {
            databaseUrl: withPort(this.databaseUrl, await through(component, 'postgres', this.ports.postgres)),
            temporalAddress: `127.0.0.1:${await through(component, 'temporal', this.ports.temporal)}`,
          }
        : { databaseUrl: this.databaseUrl, temporalAddress: this.temporalAddress };
      this.upstreams.set(component, found);
    }
    return found;
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

  /** A platform of this stack's own with a sandbox token: the partner a driver acts as, and its Authorization header. */
  sandboxPartner(name: string, webhookEndpoint: string): Promise<Partner> {
    return createSandboxPartner(this.databaseUrl, this.masterKey, name, webhookEndpoint);
  }

  /**
   * The sum of a Prometheus counter the API or the worker serves, over the series whose labels
   * match `labels` (regular expressions); undefined while the process does not answer. Counters
   * start again from 0 when their process restarts.
   */
  async counter(component: string, name: string, labels: Record<string, RegExp> = {}): Promise<number | undefined> {
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

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (the bin/ scripts set it)`);
  return value;
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

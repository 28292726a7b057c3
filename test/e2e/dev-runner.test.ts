import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { freePorts, waitForPort } from '../../src/dev/ports';

// `npm start`'s runner (bin/up → src/dev/up.ts) with the real stack: its own PostgreSQL cluster,
// a Temporal dev server, the worker and the API, in a state folder of its own (DEV_DATA_DIR) and on
// ports of its own, so that a developer's `npm start` in this checkout is not disturbed.

const root = resolve(__dirname, '../..');
const dataDir = join(root, '.data', 'dev-runner-test');
/** A second stack of the same checkout on the same PostgreSQL (as start:cluster shares npm start's). */
const secondDataDir = join(root, '.data', 'dev-runner-second');
const cluster = 'postgres-dev-runner-test';
const READY = 'Payments service is running.';
let ports: { pg: number; temporal: number; ui: number; api: number; metrics: number; workerMetrics: number; sdkMetrics: number };

interface Runner {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

type Ports = typeof ports;

/** A runner on this test's PostgreSQL cluster; `stateDir` and `on`: another stack of the same checkout beside the first. */
function startRunner(stateDir = dataDir, on: Ports = ports): Runner {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'MASTER_KEY', 'TEMPORAL_CLI']) delete env[name];
  Object.assign(env, {
    DEV_DATA_DIR: stateDir,
    PG_CLUSTER: cluster,
    PG_PORT: String(on.pg),
    TEMPORAL_PORT: String(on.temporal),
    TEMPORAL_UI_PORT: String(on.ui),
    PORT: String(on.api),
    METRICS_PORT: String(on.metrics),
    WORKER_METRICS_PORT: String(on.workerMetrics),
    TEMPORAL_METRICS_ADDRESS: `127.0.0.1:${on.sdkMetrics}`,
    LOG_LEVEL: 'warn',
  });
  const proc = spawn('bash', [join(root, 'bin/up')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  proc.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => proc.once('exit', (code, signal) => done({ code, signal })));
  return { proc, output: () => text, exited };
}

async function until<T>(what: string, read: () => T | undefined | false, timeoutMs: number, runner?: Runner): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${runner ? `; runner output:\n${runner.output()}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const running = (r: Runner) =>
  until('the stack to run', () => r.output().includes(READY) || (r.proc.exitCode !== null && r.proc.exitCode !== undefined ? fail(r) : false), 240_000, r);
const fail = (r: Runner): never => {
  throw new Error(`the runner exited ${r.proc.exitCode}:\n${r.output()}`);
};

const portOpen = (port: number, host = '127.0.0.1') =>
  new Promise<boolean>((done) => {
    const socket = connect(port, host);
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => (socket.destroy(), done(false)));
  });

/** Alive and not a zombie (a reaper-less container leaves dead children as zombies). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Every process below `pid`, whatever process group or session it moved to. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (p: number) => (children.get(p) ?? []).forEach((c) => (found.push(c), walk(c)));
  walk(pid);
  return found;
}

/** Processes whose command line names this test's state folder (the Temporal server's SQLite file). */
const usingDataDir = (stateDir = dataDir) =>
  readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(stateDir) && alive(Number(e));
      } catch {
        return false;
      }
    });

const pgRunning = () => spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'status', cluster]).status === 0;
const noStackTrace = (text: string) => expect(text.split('\n').filter((l) => /^\s+at .+\(?.+:\d+:\d+\)?$|Unhandled|uncaught/i.test(l))).toEqual([]);

const runners: Runner[] = [];
const launch = (stateDir?: string, on?: Ports) => {
  const r = startRunner(stateDir, on);
  runners.push(r);
  return r;
};

beforeAll(async () => {
  const [pg, temporal, ui, api, metrics, workerMetrics, sdkMetrics] = await freePorts(7);
  ports = { pg: pg!, temporal: temporal!, ui: ui!, api: api!, metrics: metrics!, workerMetrics: workerMetrics!, sdkMetrics: sdkMetrics! };
  rmSync(dataDir, { recursive: true, force: true });
});

afterAll(async () => {
  for (const r of runners) if (r.proc.exitCode === null && r.proc.signalCode === null) r.proc.kill('SIGINT');
  await Promise.race([Promise.all(runners.map((r) => r.exited)), new Promise((r) => setTimeout(r, 30_000))]);
  for (const pid of [...usingDataDir(), ...usingDataDir(secondDataDir)]) process.kill(Number(pid), 'SIGKILL');
  spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), 'stop', cluster, '--force'], { stdio: 'ignore' });
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(secondDataDir, { recursive: true, force: true });
}, 60_000);

let first: Runner;

test('a second start while one runs says so, exits, and leaves the first one running', async () => {
  first = launch();
  await running(first);
  const second = launch();
  const { code } = await second.exited;
  expect(second.output()).toMatch(/already running \(runner pid \d+\)/);
  expect(second.output()).toContain(String(first.proc.pid));
  expect(code).not.toBe(0);
  noStackTrace(second.output());

  expect(first.proc.exitCode).toBeNull();
  expect(pgRunning()).toBe(true);
  expect(await portOpen(ports.temporal)).toBe(true);
  const ready = await fetch(`http://127.0.0.1:${ports.api}/ready`);
  expect(ready.status).toBe(200);
  // The API listens on loopback only (HOST unset): not on the machine's other addresses.
  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal);
  if (external) expect(await portOpen(ports.api, external.address)).toBe(false);
}, 300_000);

test('another runner on the same PostgreSQL stops: it leaves the server running for the first, whose stack still answers', async () => {
  // A second stack of this checkout (its own state folder and ports) on the first one's PostgreSQL cluster, as
  // start:cluster runs beside npm start; its Ctrl-C used to stop the shared server under the first.
  const [temporal, ui, api, metrics, workerMetrics, sdkMetrics] = await freePorts(6);
  const second = launch(secondDataDir, {
    ...ports,
    temporal: temporal!,
    ui: ui!,
    api: api!,
    metrics: metrics!,
    workerMetrics: workerMetrics!,
    sdkMetrics: sdkMetrics!,
  });
  await running(second);
  // Each runner is recorded as a user of the server while it runs (asserted last: the stack's answer is what matters).
  const recorded = [first, second].map((r) => existsSync(join(root, '.data', `${cluster}.runners`, String(r.proc.pid))));
  second.proc.kill('SIGINT');
  expect((await second.exited).code).toBe(0);

  expect(pgRunning()).toBe(true);
  const ready = await fetch(`http://127.0.0.1:${ports.api}/ready`);
  expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', checks: { postgres: 'ok', temporal: 'ok' } }]);
  expect(first.proc.exitCode).toBeNull();
  expect(second.output()).toContain(`leaving PostgreSQL '${cluster}' running: still used by runner pid ${first.proc.pid}`);
  expect(usingDataDir(secondDataDir)).toEqual([]);
  expect(recorded).toEqual([true, true]);
}, 300_000);

test('the state folder is private: the Temporal SQLite file and all else in it 600, its folders 700', () => {
  const modes: string[] = [];
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    modes.push(`${path.slice(dataDir.length) || '/'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) readdirSync(path).forEach((name) => walk(join(path, name)));
  };
  walk(dataDir);
  expect(modes).toContain('/temporal.sqlite 600');
  expect(modes.filter((entry) => !/ (600|700)$/.test(entry))).toEqual([]);
  expect(modes.filter((entry) => entry.endsWith(' 700')).length).toBeGreaterThanOrEqual(2); // the folder and run/
});

test('SIGKILL of the runner takes its children with it', async () => {
  const runnerPid = first.proc.pid!;
  const children = descendants(runnerPid);
  expect(children.length).toBeGreaterThanOrEqual(3);
  process.kill(runnerPid, 'SIGKILL');
  await first.exited;
  const left = await until('the children to go', () => (children.some(alive) ? false : 'none'), 30_000).catch(() => children.filter(alive));
  expect(left).toBe('none');
  expect(usingDataDir()).toEqual([]);
  expect(await portOpen(ports.temporal)).toBe(false);
  expect(await portOpen(ports.api)).toBe(false);
}, 60_000);

let blocker: Server | undefined;

test('a start stops a Temporal server left over from its own state folder, and a child that fails stops everything cleanly', async () => {
  // What an earlier runner that died without cleaning up left behind: its Temporal dev server,
  // on its port and its SQLite file, in a session of its own.
  const leftover = spawn(
    process.env.TEMPORAL_CLI_PATH!,
    [
      'server',
      'start-dev',
      '--headless',
      '--ip',
      '127.0.0.1',
      '--port',
      String(ports.temporal),
      '--db-filename',
      join(dataDir, 'temporal.sqlite'),
      '--namespace',
      'default',
      '--log-level',
      'error',
    ],
    { detached: true, stdio: 'ignore' },
  );
  leftover.unref();
  await until('the leftover server to listen', () => existsSync(join(dataDir, 'temporal.sqlite')), 30_000);
  await waitForPort(ports.temporal, 30_000);
  // The API's port is taken: the API fails to start, and the runner must stop the rest in order.
  blocker = await new Promise<Server>((done) => {
    const s = createServer((socket) => socket.destroy()).listen(ports.api, '127.0.0.1', () => done(s));
  });
  const third = launch();
  const { code } = await third.exited;
  expect(third.output()).toMatch(/left over/);
  expect(alive(leftover.pid!)).toBe(false);
  expect(third.output()).toMatch(/api exited/);
  expect(code).toBe(1);
  noStackTrace(third.output());
  expect(usingDataDir()).toEqual([]);
  expect(pgRunning()).toBe(false);
}, 300_000);

test('the next start runs, and Ctrl-C stops it all', async () => {
  await new Promise((done) => blocker!.close(done));
  const fourth = launch();
  await running(fourth);
  fourth.proc.kill('SIGINT');
  const { code } = await fourth.exited;
  expect(code).toBe(0);
  noStackTrace(fourth.output());
  expect(usingDataDir()).toEqual([]);
  expect(pgRunning()).toBe(false);
  expect(await portOpen(ports.api)).toBe(false);
}, 300_000);

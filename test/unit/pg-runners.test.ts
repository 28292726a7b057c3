import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Which runners of a checkout use its shared PostgreSQL (bin/lib/pg-runners.sh, called by bin/lib/postgres.sh under
// the cluster's lock): a runner's stop stops the server only when no other live runner uses it and a runner started it.

const script = resolve(__dirname, '../../bin/lib/pg-runners.sh');
let dir: string;
const runners: ChildProcess[] = [];

function runner(): number {
  const proc = spawn('sleep', ['600'], { stdio: 'ignore' });
  runners.push(proc);
  return proc.pid!;
}

function leases(...args: string[]): { status: number | null; out: string; err: string } {
  const result = spawnSync('bash', [script, args[0]!, dir, ...args.slice(1)], { encoding: 'utf8' });
  return { status: result.status, out: result.stdout.trim(), err: result.stderr.trim() };
}

beforeEach(() => (dir = join(mkdtempSync(join(tmpdir(), 'pg-runners-')), 'postgres.runners')));
afterEach(() => {
  runners.splice(0).forEach((proc) => proc.kill('SIGKILL'));
  rmSync(resolve(dir, '..'), { recursive: true, force: true });
});

test('the runner that started the server stops first: the server stays for the other; the last one stops it', () => {
  const devStack = runner();
  const cluster = runner();
  expect(leases('take', String(devStack), 'started').status).toBe(0);
  expect(leases('take', String(cluster), 'running').status).toBe(0);
  expect(leases('live').out.split('\n').sort()).toEqual([String(devStack), String(cluster)].sort());

  expect(leases('release', String(devStack)).out).toBe(`keep still used by runner pid ${cluster}`);
  expect(leases('release', String(cluster)).out).toBe('stop');
  expect(existsSync(join(dir, 'started-by-runner'))).toBe(false);
});

test('a runner that joined a running server stops first: the starter keeps it, and stops it last', () => {
  const devStack = runner();
  const cluster = runner();
  leases('take', String(devStack), 'started');
  leases('take', String(cluster), 'running');
  expect(leases('release', String(cluster)).out).toBe(`keep still used by runner pid ${devStack}`);
  expect(leases('release', String(devStack)).out).toBe('stop');
});

test('a runner that is gone (SIGKILLed) no longer counts, nor does a recycled pid', async () => {
  const survivor = runner();
  const killed = spawn('sleep', ['600'], { stdio: 'ignore' });
  leases('take', String(killed.pid), 'started');
  leases('take', String(survivor), 'running');
  killed.kill('SIGKILL');
  await new Promise((done) => killed.once('exit', done));
  // Our own pid with another start time: a pid the kernel gave again, not the runner that wrote the file.
  writeFileSync(join(dir, String(process.pid)), `${process.pid} 1\n`);
  expect(leases('live').out).toBe(String(survivor));
  expect(leases('release', String(survivor)).out).toBe('stop');
});

test('a server started by hand (no runner started it) is never stopped by a runner', () => {
  const devStack = runner();
  leases('take', String(devStack), 'started');
  leases('hand-started');
  leases('take', String(devStack), 'running');
  expect(leases('release', String(devStack)).out).toMatch(/^keep it was started outside npm start and start:cluster/);
});

test('a runner that is not running cannot take a lease; a bad mode is refused', async () => {
  const gone = spawn('true');
  await new Promise((done) => gone.once('exit', done));
  expect(leases('take', String(gone.pid), 'started')).toMatchObject({ status: 1, err: expect.stringContaining('is not running') });
  expect(leases('take', String(runner()), 'owner').status).toBe(2);
  expect(leases('live').out).toBe('');
});

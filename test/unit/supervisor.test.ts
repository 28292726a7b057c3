import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { exitDescription, Supervisor } from '../../src/dev/supervisor';
import type { RestartPolicy } from '../../src/dev/restart-policy';
import { eventually } from '../support/eventually';

// start:cluster's children (src/dev/supervisor.ts) with real processes: a replica that exits is started again, one that
// keeps crashing ends the run naming it with its last lines, and the infrastructure exiting ends it at once.

/** The runner's policy, with waits of milliseconds. */
const quick: RestartPolicy = { firstDelayMs: 20, maxDelayMs: 100, resetAfterUpMs: 60_000, giveUpAfterExits: 5, giveUpWindowMs: 60_000 };

function supervisor() {
  const said: string[] = [];
  let stopEverything = 0;
  const sink = new PassThrough().resume();
  const s = new Supervisor({
    spawnChild: (_name, command, args, env) => spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] }),
    say: (line) => said.push(line),
    stopEverything: () => stopEverything++,
    out: { stdout: sink, stderr: sink },
    policy: quick,
  });
  return { s, said, stopped: () => stopEverything };
}

test('a replica that keeps crashing is started again 4 times with a growing wait, then ends the run with its last log lines', async () => {
  const { s, said, stopped } = supervisor();
  // Each run says why it failed, with its pid, as a replica logs it.
  s.start('api-1', 'bash', ['-c', 'echo "listening failed: pid $$" >&2; exit 3']);
  await eventually(
    async () => stopped(),
    (n) => n > 0,
    20_000,
  );
  expect(stopped()).toBe(1);
  expect(said.slice(0, 4)).toEqual([
    'api-1 exited (code 3); starting it again in 0.02 s (HAProxy sends its requests to the other API)',
    'api-1 exited (code 3); starting it again in 0.04 s (HAProxy sends its requests to the other API)',
    'api-1 exited (code 3); starting it again in 0.08 s (HAProxy sends its requests to the other API)',
    'api-1 exited (code 3); starting it again in 0.1 s (HAProxy sends its requests to the other API)',
  ]);
  expect(said).toHaveLength(5);
  const [message, ...lines] = said[4]!.split('\n');
  expect(message).toBe('api-1 exited 5 times within 60 s (the last: code 3); not starting it again: stopping everything. Its last log lines:');
  expect(lines).toHaveLength(5);
  for (const line of lines) expect(line).toMatch(/^ {2}\| listening failed: pid \d+$/);
  expect(new Set(lines).size).toBe(5); // five processes, one after the other
});

test('a replica killed once is started again and keeps running; stop() ends supervision', async () => {
  const { s, said, stopped } = supervisor();
  const first = s.start('worker-1', 'sleep', ['600']);
  first.kill('SIGKILL');
  const second = await eventually(
    async () => s.children[0]!.proc,
    (proc) => proc !== first && proc.pid !== undefined,
    10_000,
  );
  expect(said).toEqual(['worker-1 exited (SIGKILL); starting it again in 0.02 s (the other worker polls its task queues)']);
  s.stop();
  second.kill('SIGKILL');
  await new Promise((done) => second.once('exit', done));
  expect(s.children[0]!.proc).toBe(second);
  expect(said).toHaveLength(1);
  expect(stopped()).toBe(0);
});

test('the Temporal server exiting ends the run at once, naming it; so does HAProxy', async () => {
  for (const [name, named] of [
    ['temporal', 'the Temporal server (temporal)'],
    ['haproxy', 'HAProxy (haproxy)'],
  ]) {
    const { s, said, stopped } = supervisor();
    s.start('api-1', 'sleep', ['600']);
    s.start(name!, 'bash', ['-c', 'exit 1']);
    await eventually(
      async () => stopped(),
      (n) => n > 0,
      10_000,
    );
    expect(said).toEqual([`${named} exited (code 1); the replicas cannot work without it: stopping everything`]);
    s.children[0]!.proc.kill('SIGKILL');
  }
});

test('a Temporal server node killed once is started again while the other node serves; HAProxy in front of the nodes exiting ends the run', async () => {
  const { s, said, stopped } = supervisor();
  s.start('temporal-2', 'sleep', ['600']);
  const first = s.start('temporal-1', 'sleep', ['600']);
  first.kill('SIGKILL');
  const second = await eventually(
    async () => s.children[1]!.proc,
    (proc) => proc !== first && proc.pid !== undefined,
    10_000,
  );
  expect(said).toEqual([
    "temporal-1 exited (SIGKILL); starting it again in 0.02 s (the other Temporal node serves: HAProxy sends the frontend connections to it, and the ring moves this node's shards to it if it stays down)",
  ]);
  expect(stopped()).toBe(0);
  s.start('temporal-lb', 'bash', ['-c', 'exit 1']);
  await eventually(
    async () => stopped(),
    (n) => n > 0,
    10_000,
  );
  expect(said[1]).toBe(
    "HAProxy in front of the Temporal server's nodes (temporal-lb) exited (code 1); the replicas cannot work without it: stopping everything",
  );
  for (const child of s.children) child.proc.kill('SIGKILL');
  expect(second.pid).toBeDefined();
});

test("the tether's exit status names the signal its command died of", () => {
  expect(exitDescription(137, null)).toBe('SIGKILL');
  expect(exitDescription(143, null)).toBe('SIGTERM');
  expect(exitDescription(null, 'SIGINT')).toBe('SIGINT');
  expect(exitDescription(1, null)).toBe('code 1');
});

test('a deploy restarts a replica more often than the crash limit allows, at once, without ending the run; a retired one stays stopped', async () => {
  const { s, said, stopped } = supervisor();
  s.start('api-1', 'sleep', ['600']);
  s.start('worker-1', 'sleep', ['600']);
  const pids = [s.children[0]!.proc.pid];
  // Six requested restarts within a second: five crashes in a minute would end the run.
  for (let i = 0; i < 6; i++) {
    await s.stopOnRequest('api-1', 'restart');
    pids.push(s.children[0]!.proc.pid);
  }
  expect(new Set(pids).size).toBe(7);
  expect(s.children[0]!.proc.exitCode).toBeNull();
  await s.stopOnRequest('worker-1', 'retire');
  await new Promise((done) => setTimeout(done, 200));
  expect(s.children[1]!.proc.signalCode).toBe('SIGTERM');
  expect(stopped()).toBe(0);
  expect(said).toEqual([
    ...Array(6).fill('api-1 stopped on request (SIGTERM); starting it again now'),
    'worker-1 stopped on request (SIGTERM); not starting it again',
  ]);
  await expect(s.stopOnRequest('worker-1', 'restart')).rejects.toThrow('worker-1 is not running');
  await expect(s.stopOnRequest('temporal', 'restart')).rejects.toThrow('no replica named temporal');
  s.stop();
  s.children[0]!.proc.kill('SIGKILL');
});

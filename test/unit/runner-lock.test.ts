import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { acquireRunnerLock } from '../../src/dev/runner-lock';
import { processRecord } from '../../src/dev/processes';

// One `npm start` per checkout: the lock names a live runner, or is taken over.

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'runner-lock-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('taken when free, refused while its holder lives, released by its holder', () => {
  const file = join(dir, 'up.pid');
  const lock = acquireRunnerLock(file);
  expect(lock.acquired).toBe(true);
  expect(readFileSync(file, 'utf8')).toBe(processRecord(process.pid));
  expect(acquireRunnerLock(file)).toEqual({ acquired: false, holderPid: process.pid });
  if (lock.acquired) lock.release();
  expect(existsSync(file)).toBe(false);
});

test('a lock left by a runner that died (or a recycled pid) is taken over', () => {
  const file = join(dir, 'up.pid');
  const dead = spawnSync('true').pid!;
  writeFileSync(file, `${dead} 12345\n`);
  expect(acquireRunnerLock(file).acquired).toBe(true);
  // Our own pid with another start time: a recycled pid, not the runner that wrote it.
  writeFileSync(file, `${process.pid} 1\n`);
  expect(acquireRunnerLock(file).acquired).toBe(true);
});

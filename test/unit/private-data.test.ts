import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepDataPrivate } from '../../src/dev/private-data';

// Issue 36, item 5: `.data/temporal.sqlite` was 644 in a 755 folder, though it holds every workflow's
// history. The runner (src/dev/up.ts) makes its state folder private before it starts anything
// (test/e2e/dev-runner.test.ts checks the modes of a real stack's files).

let dir: string;
let umaskBefore: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'private-data-'));
  umaskBefore = process.umask();
});
afterEach(() => {
  process.umask(umaskBefore);
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

test('what an earlier version left readable becomes 600 (files) and 700 (folders); links and PostgreSQL clusters are left alone', () => {
  const data = join(dir, '.data');
  mkdirSync(join(data, 'run'), { recursive: true, mode: 0o755 });
  chmodSync(data, 0o755);
  writeFileSync(join(data, 'temporal.sqlite'), 'histories', { mode: 0o644 });
  writeFileSync(join(data, 'temporal.sqlite-wal'), 'histories', { mode: 0o666 });
  writeFileSync(join(data, 'run', 'api.pid'), '1', { mode: 0o644 });
  mkdirSync(join(data, 'postgres'), { mode: 0o750 });
  writeFileSync(join(data, 'postgres', 'PG_VERSION'), '16', { mode: 0o644 });
  const outside = join(dir, 'elsewhere');
  writeFileSync(outside, '', { mode: 0o644 });
  symlinkSync(outside, join(data, 'relocated'));

  keepDataPrivate(data);

  expect([modeOf(data), modeOf(join(data, 'run'))]).toEqual(['700', '700']);
  expect([modeOf(join(data, 'temporal.sqlite')), modeOf(join(data, 'temporal.sqlite-wal')), modeOf(join(data, 'run', 'api.pid'))]).toEqual([
    '600',
    '600',
    '600',
  ]);
  // A cluster's folder is private, its files initdb's business; a link's target is not ours to change.
  expect([modeOf(join(data, 'postgres')), modeOf(join(data, 'postgres', 'PG_VERSION'))]).toEqual(['700', '644']);
  expect(modeOf(outside)).toBe('644');
});

test('a missing state folder is made 700, and the runner creates private files from then on', () => {
  const data = join(dir, 'fresh', '.data');
  keepDataPrivate(data);
  expect(modeOf(data)).toBe('700');
  expect(process.umask()).toBe(0o077);
  // As the Temporal dev server makes its SQLite file: a child of the runner, asking for 666.
  const child = spawnSync(process.execPath, [
    '-e',
    `require('node:fs').writeFileSync(${JSON.stringify(join(data, 'temporal.sqlite'))}, 'x', { mode: 0o666 }); require('node:fs').mkdirSync(${JSON.stringify(join(data, 'sub'))})`,
  ]);
  expect(child.status).toBe(0);
  expect([modeOf(join(data, 'temporal.sqlite')), modeOf(join(data, 'sub'))]).toEqual(['600', '700']);
});

test('as root, a folder holding what the postgres user owns stays passable (711) for it, and nothing in it readable', () => {
  if (process.getuid?.() !== 0 || spawnSync('id', ['-u', 'postgres']).status !== 0) return; // needs root and the postgres user
  const data = join(dir, '.data');
  mkdirSync(join(data, 'postgres-test.sock'), { recursive: true, mode: 0o755 });
  spawnSync('chown', ['postgres:', join(data, 'postgres-test.sock')]);
  writeFileSync(join(data, 'jest-results.json'), '{}', { mode: 0o644 });
  chmodSync(data, 0o755);
  keepDataPrivate(data);
  expect([modeOf(data), modeOf(join(data, 'jest-results.json')), modeOf(join(data, 'postgres-test.sock'))]).toEqual(['711', '600', '755']);
});

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FakePath } from '../support/fake-path';

// The first `npm start` builds the Temporal CLI with `go install -v`, which names every package it
// compiles (about 1,400 of them). The terminal gets the expected duration up front and a progress
// line now and then; the full output goes to a log file whose path is printed when the build fails.
// Staged with a fake `go` that prints package names like the real one.

const root = resolve(__dirname, '../..');
const script = join(root, 'bin/lib/temporal-cli.sh');
const REAL = [
  'bash',
  'env',
  'dirname',
  'basename',
  'mkdir',
  'mktemp',
  'cat',
  'tail',
  'sed',
  'awk',
  'rm',
  'mv',
  'chmod',
  'flock',
  'readlink',
  'ln',
  'sleep',
  'date',
  'wc',
  'tee',
  'cksum',
  'cut',
];
const PACKAGES = 1400;
let path: FakePath;

beforeEach(() => {
  path = new FakePath(REAL);
});
afterEach(() => path.remove());

/** A `go` that lists PACKAGES package names on stderr over ~2 s, then builds (or fails). */
function fakeGo(outcome: 'builds' | 'fails') {
  path.fake(
    'go',
    `if [ "$1" = version ]; then echo "go version go1.26.0 linux/amd64"; exit 0; fi
for i in $(seq 1 ${PACKAGES}); do echo "github.com/example/pkg$i" >&2; [ $((i % 200)) -eq 0 ] && sleep 0.3; done
${
  outcome === 'builds'
    ? `printf '#!/bin/sh\\necho "temporal version 1.5.1"\\n' > "$GOBIN/temporal"; chmod 755 "$GOBIN/temporal"`
    : `echo "go: github.com/example/pkg7: build failed: out of disk space" >&2; exit 1`
}`,
  );
  path.fake('seq', 'i=$1; while [ "$i" -le "$2" ]; do echo "$i"; i=$((i+1)); done');
}

const run = () => path.run(script, [], { PAYMENTS_TOOLS_CACHE: join(path.dir, 'cache'), TEMPORAL_BUILD_PROGRESS_SECONDS: '1' });

test('a build prints the expected duration and a few progress lines, and keeps the package list in a log', () => {
  fakeGo('builds');
  const r = run();
  expect(r.status).toBe(0);
  expect(r.stdout.trim()).toBe(join(path.dir, 'cache/temporal-cli-1.5.1/temporal'));
  const lines = r.stderr.trim().split('\n');
  expect(lines.length).toBeLessThan(20);
  expect(r.stderr).not.toMatch(/github\.com\/example\/pkg/);
  expect(r.stderr).toMatch(/a few minutes on 2 cores, once per machine/);
  expect(r.stderr).toMatch(/\d+ s: \d+ packages built/);
  const logPath = join(path.dir, 'cache/temporal-cli-1.5.1/build.log');
  expect(r.stderr).toContain(logPath);
  expect(readFileSync(logPath, 'utf8').match(/github\.com\/example\/pkg\d+/g)).toHaveLength(PACKAGES);
});

test('a failed build shows the end of the log and where the whole log is', () => {
  fakeGo('fails');
  const r = run();
  expect(r.status).not.toBe(0);
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n').length).toBeLessThan(40);
  expect(r.stderr).toMatch(/out of disk space/);
  const logPath = join(path.dir, 'cache/temporal-cli-1.5.1/build.log');
  expect(r.stderr).toContain(logPath);
  expect(readFileSync(logPath, 'utf8')).toMatch(/out of disk space/);
});

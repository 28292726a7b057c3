import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FakePath } from '../support/fake-path';

// `npm test` provisions what it needs, Chromium included (the browser test of the rendered reference):
// bin/lib/chromium.sh finds it or installs Debian's package, as root directly or through sudo, and
// otherwise says how to get it. Staged on a PATH of fakes: apt-get here "installs" a fake chromium.

const root = resolve(__dirname, '../..');
const script = join(root, 'bin/lib/chromium.sh');
const REAL = ['bash', 'env', 'dirname', 'basename', 'mkdir', 'cat', 'tail', 'sed', 'rm', 'flock', 'readlink', 'tty', 'chmod'];
let path: FakePath;

beforeEach(() => {
  path = new FakePath(REAL);
});
afterEach(() => path.remove());

const asUser = (uid: number) => path.fake('id', `[ "$1" = -u ] && echo ${uid} || echo "uid=${uid}"`);
// apt-get records its calls (and under whom) and "installs" chromium on install.
const aptGet = () =>
  path.fake(
    'apt-get',
    `echo "$FAKE_RUNNER apt-get $*" >> "${'$'}{FAKE_CALLS:?}"
if [ "$1" = install ]; then printf '#!/bin/sh\\necho Chromium 1.0\\n' > "$(dirname "$0")/chromium"; chmod 755 "$(dirname "$0")/chromium"; fi`,
  );
const sudo = () => path.fake('sudo', `[ "$1" = -n ] && shift; FAKE_RUNNER=sudo exec "$@"`);
const calls = () => (existsSync(join(path.dir, 'calls')) ? readFileSync(join(path.dir, 'calls'), 'utf8').replace(/\n$/, '').split('\n') : []);
const env = () => ({ FAKE_CALLS: join(path.dir, 'calls'), PAYMENTS_TOOLS_CACHE: join(path.dir, 'cache') });

test('a chromium on PATH is used as it is', () => {
  const chromium = path.fake('chromium', 'echo Chromium 1.0');
  aptGet();
  const r = path.run(script, [], env());
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout.trim()).toBe(chromium);
  expect(calls()).toEqual([]);
});

test('CHROMIUM_PATH wins, and must be an executable', () => {
  const chromium = path.fake('my-chromium', 'echo Chromium 1.0');
  expect(path.run(script, [], { ...env(), CHROMIUM_PATH: chromium }).stdout.trim()).toBe(chromium);
  const wrong = path.run(script, [], { ...env(), CHROMIUM_PATH: join(path.dir, 'nothing') });
  expect(wrong.status).not.toBe(0);
  expect(wrong.stderr).toMatch(/CHROMIUM_PATH/);
});

test('missing, as root: installed with apt-get', () => {
  asUser(0);
  aptGet();
  const r = path.run(script, [], env());
  expect(r.stderr).toMatch(/installing/i);
  expect(r.status).toBe(0);
  expect(r.stdout.trim()).toBe(join(path.bin, 'chromium'));
  expect(calls()).toEqual([' apt-get update', expect.stringMatching(/^ apt-get install .*-y.* chromium$/)]);
});

test('missing, as a user with sudo: installed through sudo', () => {
  asUser(1000);
  aptGet();
  sudo();
  const r = path.run(script, [], env());
  expect(r.status).toBe(0);
  expect(r.stdout.trim()).toBe(join(path.bin, 'chromium'));
  expect(calls()).toEqual(['sudo apt-get update', expect.stringMatching(/^sudo apt-get install .*chromium$/)]);
});

test('missing, no way to install it: a clear message and a failure, nothing on stdout', () => {
  asUser(1000);
  aptGet();
  const r = path.run(script, [], env());
  expect(r.status).not.toBe(0);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/apt-get install chromium/);
  expect(r.stderr).toMatch(/CHROMIUM_PATH/);
  expect(calls()).toEqual([]);
});

test('apt-get failing: the failure is reported with where its output went', () => {
  asUser(0);
  path.fake('apt-get', 'echo "E: Unable to locate package chromium" >&2; exit 100');
  const r = path.run(script, [], env());
  expect(r.status).not.toBe(0);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/Unable to locate package chromium/);
  expect(r.stderr).toMatch(/apt-get\.log/);
});

test('npm test and CI provision Chromium with this same script', () => {
  expect(readFileSync(join(root, 'bin/test'), 'utf8')).toMatch(/CHROMIUM_PATH="\$\(bin\/lib\/chromium\.sh\)"/);
  const ci = readFileSync(join(root, '.ci/run'), 'utf8');
  expect(ci).toMatch(/bin\/lib\/chromium\.sh/);
  expect(ci).not.toMatch(/apt-get/);
});

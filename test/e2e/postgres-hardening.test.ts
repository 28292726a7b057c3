import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/dev/ports';

// The project's own PostgreSQL (the test cluster here; the dev cluster is made by the same script):
// password authentication with a generated secret, and logs that keep account numbers out and are
// readable by their owner only.

const root = resolve(__dirname, '../..');
const cluster = 'postgres-test';
const adminUrl = new URL(process.env.TEST_DATABASE_URL!);
const ownPort = (): string =>
  readFileSync(join(root, '.data', cluster, 'postmaster.pid'), 'utf8')
    .split('\n')[3]!
    .trim();
// TEST_DATABASE_URL may name a server of the user's own; these checks are about the project's cluster.
const ownCluster = (() => {
  try {
    return ownPort() === adminUrl.port;
  } catch {
    return false;
  }
})();
const ownTest = ownCluster ? test : test.skip;

async function connectWith(password: string | undefined): Promise<unknown> {
  const client = new Client({
    host: '127.0.0.1',
    port: Number(adminUrl.port),
    user: decodeURIComponent(adminUrl.username),
    database: 'postgres',
    password,
    connectionTimeoutMillis: 10_000,
  });
  try {
    await client.connect();
    await client.end();
    return undefined;
  } catch (err) {
    return err;
  }
}

const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);

ownTest('the URL carries the generated secret, kept in .data with mode 600', () => {
  const secretFile = join(root, '.data', `${cluster}.password`);
  expect(mode(secretFile)).toBe('600');
  const secret = readFileSync(secretFile, 'utf8').trim();
  expect(secret.length).toBeGreaterThanOrEqual(32);
  expect(decodeURIComponent(adminUrl.password)).toBe(secret);
  const printed = execFileSync('bash', [join(root, 'bin/lib/postgres.sh'), 'url', cluster, adminUrl.port, 'postgres'], { encoding: 'utf8' }).trim();
  expect(printed).toBe(adminUrl.toString());
});

ownTest('a connection without the password, or with a wrong one, is refused', async () => {
  expect(await connectWith(undefined)).toBeInstanceOf(Error);
  expect(await connectWith('wrong')).toMatchObject({ code: '28P01' });
  expect(await connectWith(decodeURIComponent(adminUrl.password))).toBeUndefined();
  // Over the Unix socket too: the local OS user is no credential.
  expect(
    readFileSync(join(root, '.data', cluster, 'pg_hba.conf'), 'utf8')
      .split('\n')
      .filter((l) => /^\s*[^#\s]/.test(l) && /\btrust\b/.test(l)),
  ).toEqual([]);
});

ownTest('errors are logged tersely, without statements or detail, in files only their owner reads', async () => {
  const accountNumber = `9${randomBytes(8).readBigUInt64BE() % 10n ** 15n}`;
  const admin = new Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    const settings = await admin.query<{ name: string; setting: string }>(
      "select name, setting from pg_settings where name in ('log_error_verbosity', 'log_min_error_statement', 'log_file_mode', 'password_encryption') order by name",
    );
    expect(Object.fromEntries(settings.rows.map((r) => [r.name, r.setting]))).toEqual({
      log_error_verbosity: 'terse',
      log_file_mode: '0600',
      log_min_error_statement: 'panic',
      password_encryption: 'scram-sha-256',
    });
    // A unique violation names the key's value in DETAIL and the statement: neither may reach the log.
    await admin.query('create temporary table accounts_probe (account_number text unique)');
    await admin.query('insert into accounts_probe values ($1)', [accountNumber]);
    await expect(admin.query(`insert into accounts_probe values ('${accountNumber}')`)).rejects.toMatchObject({ code: '23505' });
  } finally {
    await admin.end();
  }
  const log = join(root, '.data', `${cluster}.log`);
  await new Promise((r) => setTimeout(r, 300));
  const text = readFileSync(log, 'utf8');
  expect(text).toMatch(/duplicate key value violates unique constraint/);
  expect(text).not.toContain(accountNumber);
  expect(mode(log)).toBe('600');
});

test('a trust cluster of an earlier version is switched to a password at its next start, data kept', async () => {
  const name = 'postgres-trust-upgrade-test';
  const data = join(root, '.data');
  const pgsh = (...args: string[]) => spawnSync('bash', [join(root, 'bin/lib/postgres.sh'), ...args], { encoding: 'utf8' });
  const port = await freePort();
  try {
    expect(pgsh('start', name, String(port), 'kept').status).toBe(0);
    const before = new Client({ connectionString: pgsh('url', name, String(port), 'kept').stdout.trim() });
    await before.connect();
    await before.query('create table marker (v text)');
    await before.query("insert into marker values ('kept')");
    await before.end();
    // What an earlier version made: trust for everyone, no secret file.
    expect(pgsh('stop', name).status).toBe(0);
    const hba = join(data, name, 'pg_hba.conf');
    const owner = statSync(hba);
    writeFileSync(hba, 'local all all trust\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n');
    chownSync(hba, owner.uid, owner.gid);
    rmSync(join(data, `${name}.password`));

    const upgrade = pgsh('start', name, String(port), 'kept');
    expect(upgrade.stderr).toMatch(/trust authentication by an earlier version: switching it to a password/);
    expect(upgrade.status).toBe(0);
    expect(mode(join(data, `${name}.password`))).toBe('600');
    const url = new URL(pgsh('url', name, String(port), 'kept').stdout.trim());
    const after = new Client({ connectionString: url.toString() });
    await after.connect();
    expect((await after.query('select v from marker')).rows).toEqual([{ v: 'kept' }]);
    expect((await after.query('show log_error_verbosity')).rows).toEqual([{ log_error_verbosity: 'terse' }]);
    await after.end();
    const anonymous = new Client({ host: '127.0.0.1', port, user: 'payments', database: 'kept', password: 'wrong', connectionTimeoutMillis: 10_000 });
    await expect(anonymous.connect()).rejects.toMatchObject({ code: '28P01' });
  } finally {
    pgsh('stop', name);
    rmSync(join(data, name), { recursive: true, force: true });
    for (const suffix of ['.password', '.log', '.sock']) rmSync(join(data, `${name}${suffix}`), { recursive: true, force: true });
    rmSync(join(data, `.${name}.lock`), { force: true });
  }
}, 120_000);

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { stackDatabase } from '../../src/dev/stack-database';

// Issue 36, item 19: `npm run platform:create` while `npm start` runs said "DATABASE_URL is not set".
// Without DATABASE_URL it now writes to the run command's own database, found as bin/up finds it
// (cluster PG_CLUSTER, port PG_PORT, database `payments`, the password in .data/<cluster>.password),
// and says which. Here the "run command's cluster" is this checkout's test cluster, on its port.

const root = resolve(__dirname, '../..');
const testCluster = new URL(process.env.TEST_DATABASE_URL!);
const stackEnv = { PG_CLUSTER: 'postgres-test', PG_PORT: testCluster.port };
let createdPaymentsDatabase = false;

const admin = async <T>(work: (client: Client) => Promise<T>): Promise<T> => {
  const client = new Client({ connectionString: testCluster.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

beforeAll(async () => {
  // The database bin/up would have created on its cluster.
  createdPaymentsDatabase = await admin(async (client) => {
    if ((await client.query("select 1 from pg_database where datname = 'payments'")).rowCount) return false;
    await client.query('create database payments');
    return true;
  });
});
afterAll(async () => {
  if (createdPaymentsDatabase) await admin((client) => client.query('drop database payments with (force)'));
});

function createPlatform(env: NodeJS.ProcessEnv, name: string) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, MASTER_KEY: process.env.MASTER_KEY };
  if (!('DATABASE_URL' in env)) delete childEnv.DATABASE_URL;
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/create-platform.ts', '--name', name], { cwd: root, env: childEnv, encoding: 'utf8' });
}

const platformNamed = async (databaseUrl: string, id: string) => {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ name: string }>('select name from platforms where id = $1', [id])).rows[0]?.name;
  } finally {
    await client.end();
  }
};

test("without DATABASE_URL: writes to the run command's database and says which, never its password", async () => {
  const run = createPlatform(stackEnv, 'Stack platform');
  expect(run.stderr).not.toMatch(/DATABASE_URL is not set/);
  expect(run.status).toBe(0);
  const { platformId } = JSON.parse(run.stdout) as { platformId: string };
  const stack = stackDatabase(stackEnv, root);
  expect(await platformNamed(stack.url, platformId)).toBe('Stack platform');
  expect(run.stderr).toContain(
    `wrote platform ${platformId} to postgresql://payments@127.0.0.1:${testCluster.port}/payments (npm start's PostgreSQL cluster 'postgres-test'`,
  );
  expect(run.stderr).not.toContain(new URL(stack.url).password);
}, 120_000);

test('with DATABASE_URL: writes there, and says so', async () => {
  const databaseUrl = process.env.DATABASE_URL!;
  const run = createPlatform({ DATABASE_URL: databaseUrl }, 'Own database platform');
  expect(run.status).toBe(0);
  const { platformId } = JSON.parse(run.stdout) as { platformId: string };
  expect(await platformNamed(databaseUrl, platformId)).toBe('Own database platform');
  const shown = new URL(databaseUrl);
  shown.password = '';
  expect(run.stderr).toContain(`wrote platform ${platformId} to ${shown.toString()} (DATABASE_URL)`);
}, 120_000);

test('without DATABASE_URL and no run command database: says how to get one', () => {
  const emptyRoot = mkdtempSync(join(tmpdir(), 'no-stack-'));
  try {
    expect(() => stackDatabase({}, emptyRoot)).toThrow(
      /DATABASE_URL is not set, and npm start's PostgreSQL cluster 'postgres' has no password file .*run npm start once/,
    );
  } finally {
    rmSync(emptyRoot, { recursive: true, force: true });
  }
  const stopped = createPlatform({ PG_CLUSTER: 'postgres-test', PG_PORT: '1' }, 'Nowhere');
  expect(stopped.status).toBe(1);
  expect(stopped.stderr).toMatch(/cannot reach postgresql:\/\/payments@127\.0\.0\.1:1\/payments .*is npm start running\?/);
}, 120_000);

import { bundleWorkflowCode } from '@temporalio/worker';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { migrate, openOrm } from '../../src/db/orm';
import { freePort, waitForPort } from '../../src/dev/ports';
import { Connection } from '@temporalio/client';
import { ensureSearchAttributes } from '../../src/temporal/register-search-attributes';
import { clearFindings } from './conformance-record';

/**
 * Once per test run: a fresh database on the test PostgreSQL, a headless Temporal dev server
 * on a free port, and one workflow bundle every test worker reuses.
 */
export default async function globalSetup(): Promise<void> {
  process.env.LOG_LEVEL ??= 'warn';
  const root = resolve(__dirname, '../..');
  clearFindings();
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests with `npm test`');
  const dbName = `payments_test_${Date.now()}_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  process.env.DATABASE_URL = url.toString();
  process.env.TEST_DATABASE_NAME = dbName;
  const orm = await openOrm(process.env.DATABASE_URL, { poolMax: 2 });
  await migrate(orm, process.env.DATABASE_URL);
  await orm.close();

  process.env.MASTER_KEY = randomBytes(32).toString('base64');

  const cli = process.env.TEMPORAL_CLI_PATH;
  if (!cli) throw new Error('TEMPORAL_CLI_PATH is not set: run the tests with `npm test`');
  const port = await freePort();
  const temporal = spawn(
    cli,
    ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port), '--namespace', 'default', '--log-level', 'error'],
    {
      stdio: 'ignore',
      detached: true,
    },
  );
  (globalThis as Record<string, unknown>).__temporalServer = temporal;
  await waitForPort(port, 60_000);
  process.env.TEMPORAL_TEST_ADDRESS = `127.0.0.1:${port}`;
  const connection = await Connection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS });
  await ensureSearchAttributes(connection, 'default');
  await connection.close();

  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: silentLogger });
  mkdirSync(join(root, '.data'), { recursive: true });
  const bundlePath = join(root, '.data', `test-workflow-bundle-${process.pid}.js`);
  writeFileSync(bundlePath, code);
  process.env.TEST_WORKFLOW_BUNDLE = bundlePath;
}

const silentLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

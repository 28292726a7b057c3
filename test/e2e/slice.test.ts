import { Client, Connection } from '@temporalio/client';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client as PgClient } from 'pg';
import { freePort, waitForPort } from '../../src/dev/ports';
import { verifyWebhookSignature } from '../../src/security/webhook-signature';
import { eventually } from '../support/eventually';
import { WebhookReceiver } from '../support/receiver';

// The whole slice as a user runs it: a Temporal dev server, PostgreSQL, the worker and the API
// as separate processes, the platform CLI, and a webhook receiver that verifies signatures.

const root = resolve(__dirname, '../..');
const tsx = resolve(root, 'node_modules/.bin/tsx');
const processes: ChildProcess[] = [];
let receiver: WebhookReceiver;
let dbName: string;
let env: NodeJS.ProcessEnv;
let baseUrl: string;
let temporalAddress: string;

function launch(command: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const proc = spawn(command, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  proc.once('exit', (code) => {
    if (code) console.error(`${args.join(' ')} exited ${code}: ${stderr}`);
  });
  processes.push(proc);
  return proc;
}

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  dbName = `e2e_${Date.now()}`;
  const admin = new PgClient({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const dbUrl = new URL(process.env.TEST_DATABASE_URL!);
  dbUrl.pathname = `/${dbName}`;

  const [temporalPort, apiPort] = [await freePort(), await freePort()];
  temporalAddress = `127.0.0.1:${temporalPort}`;
  env = {
    ...process.env,
    DATABASE_URL: dbUrl.toString(),
    TEMPORAL_ADDRESS: temporalAddress,
    MASTER_KEY: randomBytes(32).toString('base64'),
    PORT: String(apiPort),
    LOG_LEVEL: 'warn',
    TEMPORAL_TASK_QUEUE: 'payments-e2e',
    // The receiver below listens on this machine: allowed for sandbox, as `npm start` does.
    WEBHOOK_ALLOW_LOOPBACK: '1',
  };
  baseUrl = `http://127.0.0.1:${apiPort}/2025-10-13`;

  launch(process.env.TEMPORAL_CLI_PATH!, [
    'server',
    'start-dev',
    '--headless',
    '--ip',
    '127.0.0.1',
    '--port',
    String(temporalPort),
    '--namespace',
    'default',
    '--log-level',
    'error',
  ]);
  await waitForPort(temporalPort, 60_000);
  launch(tsx, ['worker/main.ts']);
  launch(tsx, ['src/api/main.ts']);
  await waitForPort(apiPort, 60_000);
}, 120_000);

afterAll(async () => {
  for (const p of processes.reverse()) p.kill('SIGINT');
  await Promise.all(processes.map((p) => (p.exitCode !== null ? undefined : new Promise((r) => p.once('exit', r)))));
  await receiver.stop();
  const admin = new PgClient({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
});

test('fund an account over HTTP, receive a verifiable webhook, find the workflow by customer id', async () => {
  // The documented command prints one line of JSON with the credentials.
  const { stdout } = await promisify(execFile)(tsx, ['src/cli/create-platform.ts', '--name', 'E2E', '--regulated', '--webhook-url', receiver.url], {
    cwd: root,
    env,
  });
  const creds = JSON.parse(stdout.trim()) as { platformId: string; tokenId: string; clientSecret: string; baseUrl: string };
  expect(Object.keys(creds).sort()).toEqual(['baseUrl', 'clientSecret', 'platformId', 'tokenId']);
  expect(creds.baseUrl).toBe(baseUrl);
  const auth = `Basic ${Buffer.from(`${creds.tokenId}:${creds.clientSecret}`).toString('base64')}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  const customer = await call('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'e2e-1', fullName: 'Grace Hopper' });
  expect(customer.status).toBe(201);
  const accounts = await call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}`);
  const account = accounts.body.data[0];
  const funded = await call('POST', `/sandbox/internal-accounts/${account.id}/fund`, { amount: 10_000 });
  expect(funded.status).toBe(200);
  expect(funded.body.balance.amount).toBe(10_000);

  await receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'INCOMING_PAYMENT.COMPLETED'), 30_000);
  const hook = receiver.ofType('INCOMING_PAYMENT.COMPLETED')[0]!;
  const key = await call('GET', '/webhooks/public-key');
  expect(verifyWebhookSignature(key.body.publicKeyPem, hook.rawBody, String(hook.headers['x-svc-signature']))).toBe(true);
  expect(hook.body.data).toMatchObject({ customerId: customer.body.id, status: 'COMPLETED', receivedAmount: { amount: 10_000 } });

  const connection = await Connection.connect({ address: temporalAddress });
  try {
    const client = new Client({ connection });
    const ids = await eventually(
      async () => {
        const found: string[] = [];
        for await (const wf of client.workflow.list({ query: `CustomerId = "${customer.body.id}"` })) found.push(`${wf.type}:${wf.status.name}`);
        return found;
      },
      (found) => found.includes('incomingPayment:COMPLETED'),
    );
    expect(ids).toContain('incomingPayment:COMPLETED');
  } finally {
    await connection.close();
  }
});

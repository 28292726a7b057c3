import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { basePath, loadConfig, type MetricsListen } from '../config';
import { ApiToken } from '../contexts/platforms/entities';
import { migrate, openOrm } from '../db/orm';
import { createPlatform, createToken } from '../contexts/platforms/services/platforms';
import { adoptDefaultUmaDomain } from '../contexts/platforms/services/uma-domain';
import { DEV_SANDBOX_PLATFORM } from './sandbox-platform';
import { waitForPort } from './ports';
import { parseMasterKey } from '../security/secrets';

/** Orchestrates a local stack for `npm start`: Temporal dev server, migrations, worker, API. */

const root = resolve(__dirname, '../..');
const dataDir = join(root, '.data');
const say = (msg: string) => process.stderr.write(`[up] ${msg}\n`);

function masterKey(): string {
  if (process.env.MASTER_KEY) return process.env.MASTER_KEY;
  const file = join(dataDir, 'master.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

interface Credentials {
  platformId: string;
  tokenId: string;
  clientSecret: string;
  baseUrl: string;
}

/** The default sandbox platform: created on first start, its credentials kept in .data/. */
async function sandboxCredentials(databaseUrl: string, baseUrl: string): Promise<Credentials> {
  const file = join(dataDir, 'sandbox-credentials.json');
  const orm = await openOrm(databaseUrl, { poolMax: 2 });
  try {
    await migrate(orm, databaseUrl);
    const em = orm.em.fork();
    if (existsSync(file)) {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as Credentials;
      if (await em.findOne(ApiToken, { id: saved.tokenId })) {
        // A sandbox platform created before platforms had a UMA domain gets its default one now.
        await adoptDefaultUmaDomain(em, saved.platformId);
        return { ...saved, baseUrl };
      }
      say('saved sandbox credentials do not match this database; creating a new sandbox platform');
    }
    const key = parseMasterKey(masterKey());
    const platform = await createPlatform(em, DEV_SANDBOX_PLATFORM, { masterKey: key });
    const token = await createToken(em, key, platform.id, 'SANDBOX', 'sandbox-default');
    const creds = { platformId: platform.id, tokenId: token.tokenId, clientSecret: token.clientSecret, baseUrl };
    writeFileSync(file, JSON.stringify(creds), { mode: 0o600 });
    return creds;
  } finally {
    await orm.close();
  }
}

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const children: { name: string; proc: ChildProcess }[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    // Stop in reverse order: API, worker, then Temporal.
    for (const { name, proc } of [...children].reverse()) {
      if (proc.exitCode !== null || proc.signalCode !== null) continue;
      proc.kill('SIGINT');
      await new Promise<void>((done) => {
        const timer = setTimeout(() => {
          say(`${name} did not stop in time; killing it`);
          proc.kill('SIGKILL');
        }, 15_000);
        proc.once('exit', () => {
          clearTimeout(timer);
          done();
        });
      });
    }
    if (process.env.OWN_POSTGRES_PORT) {
      await new Promise<void>((done) => spawn('bash', [join(root, 'bin/lib/postgres.sh'), 'stop', 'postgres'], { stdio: 'inherit' }).once('exit', () => done()));
    }
    say('stopped; data kept in .data/');
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const start = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env) => {
    // Own process group: a terminal Ctrl-C reaches us, and we stop children in order.
    const proc = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    children.push({ name, proc });
    proc.once('exit', (code, signal) => {
      if (!stopping) {
        say(`${name} exited (${signal ?? code}); stopping everything`);
        void stopAll(1);
      }
    });
    return proc;
  };

  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  const uiPort = Number(process.env.TEMPORAL_UI_PORT ?? 8233);
  let temporalUi = process.env.TEMPORAL_UI_URL ?? (temporalAddress ? '(your Temporal UI)' : `http://127.0.0.1:${uiPort}`);
  if (!temporalAddress) {
    const port = Number(process.env.TEMPORAL_PORT ?? 7233);
    say(`starting the Temporal dev server on 127.0.0.1:${port} (UI on ${uiPort}, state in .data/temporal.sqlite)`);
    start('temporal', 'bash', [join(root, 'bin/lib/temporal-dev.sh'), String(port), String(uiPort), join(dataDir, 'temporal.sqlite')]);
    await waitForPort(port, 60_000);
    temporalAddress = `127.0.0.1:${port}`;
    temporalUi = `http://127.0.0.1:${uiPort}`;
  }

  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set (bin/up sets it)');
  const port = Number(process.env.PORT ?? 3000);
  const baseUrl = (process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${port}`).replace(/\/+$/, '') + basePath(process.env.API_PREFIX ?? '');
  say('running migrations');
  const creds = await sandboxCredentials(databaseUrl, baseUrl);

  // Local development: sandbox webhooks may go to a receiver on this machine (README: webhook destination policy).
  const env = { ...process.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress, MASTER_KEY: masterKey(), PORT: String(port), WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK ?? '1' };
  const tsx = join(root, 'node_modules/.bin/tsx');
  start('worker', tsx, ['worker/main.ts'], env);
  start('api', tsx, ['src/api/main.ts'], env);
  await waitForPort(port, 60_000);
  const { apiMetrics, workerMetrics, temporalMetricsAddress } = loadConfig(env);
  const scrape = (listen: MetricsListen | null) => (listen ? `http://${listen.host}:${listen.port}/metrics` : 'off');

  process.stdout.write(
    [
      '',
      'Payments service is running.',
      `  API base URL:    ${baseUrl}`,
      `  API reference:   ${baseUrl}/reference   (OpenAPI: ${baseUrl}/openapi.json)`,
      `  Temporal UI:     ${temporalUi}`,
      `  Readiness:       http://127.0.0.1:${port}/ready`,
      `  Metrics:         API ${scrape(apiMetrics)}, worker ${scrape(workerMetrics)}, Temporal SDK ${temporalMetricsAddress ? `http://${temporalMetricsAddress}/metrics` : 'off'}`,
      '  Sandbox credentials (HTTP Basic: tokenId as user, clientSecret as password):',
      JSON.stringify(creds),
      'Press Ctrl-C to stop.',
      '',
    ].join('\n') + '\n',
  );
}

main().catch((err: unknown) => {
  say(`failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

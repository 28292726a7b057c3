import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { basePath, loadConfig, type MetricsListen } from '../config';
import { sandboxCredentials } from './sandbox-credentials';
import { stopLeftovers } from './leftovers';
import { portOpen, waitForPort } from './ports';
import { acquireRunnerLock } from './runner-lock';
import { releaseOwnPostgres } from './shared-postgres';
import { stopChildren } from './stop-children';
import { stackDataDir, stackMasterKey } from './master-key';
import { keepDataPrivate } from './private-data';

/**
 * Orchestrates a local stack for `npm start`: Temporal dev server, migrations, worker, API. One runner
 * per checkout (a lock file with its pid); its children are tethered to it (bin/lib/tethered.sh) so that
 * none outlives it, however it ends.
 */

const root = resolve(__dirname, '../..');
// DEV_DATA_DIR: another state folder (the runner's own tests use one, to leave a developer's stack alone).
const dataDir = stackDataDir();
const runDir = join(dataDir, 'run');
const temporalDbFile = join(dataDir, 'temporal.sqlite');
const shown = (path: string) => relative(root, path) || '.';
// A lost terminal turns writes into EIO errors: never let one of those end the runner.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);
const say = (msg: string) => process.stderr.write(`[up] ${msg}\n`);

function masterKey(): string {
  return stackMasterKey(dataDir, { create: true });
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Resolves once the API answers HTTP on `port` (a port merely open could be another program's). */
async function apiAnswers(port: number): Promise<void> {
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await sleep(250);
  }
}

async function main(): Promise<void> {
  // First: every file the runner and its children write in the state folder is private from here on.
  keepDataPrivate(dataDir);
  mkdirSync(runDir, { recursive: true });
  const lock = acquireRunnerLock(join(dataDir, 'up.pid'));
  if (!lock.acquired) {
    say(`the stack is already running (runner pid ${lock.holderPid}); leaving it alone.`);
    say(`stop it with Ctrl-C in its terminal (or: kill ${lock.holderPid}), then start again.`);
    process.exit(1);
  }
  const children: { name: string; proc: ChildProcess }[] = [];
  let stopping = false;
  let stopped!: () => void;
  const stopRequested = new Promise<void>((done) => (stopped = done));
  let startup: Promise<void> = Promise.resolve();
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    stopped();
    say('stopping…');
    // Stop in reverse order: API, worker, then Temporal.
    await stopChildren(children, say, 15_000);
    // A start still under way (migrations, say) ends before its database goes away.
    await Promise.race([startup.catch(() => undefined), sleep(20_000)]);
    // Stopped only if no other runner of this checkout (npm start, start:cluster) still uses it.
    await releaseOwnPostgres(root);
    lock.release();
    say(`stopped; data kept in ${shown(dataDir)}/`);
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  // The terminal went away: nobody is left to press Ctrl-C, so stop as if they had.
  process.on('SIGHUP', () => void stopAll(0));
  // Whatever breaks while stopping (a connection cut by the database going away) is said in one line.
  process.on('uncaughtException', (err) => {
    say(`${stopping ? 'while stopping: ' : 'failed: '}${err.message}`);
    void stopAll(1);
  });
  process.on('unhandledRejection', (reason) => {
    say(`${stopping ? 'while stopping: ' : 'failed: '}${reason instanceof Error ? reason.message : String(reason)}`);
    void stopAll(1);
  });

  const start = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env) => {
    // Own process group: a terminal Ctrl-C reaches us, and we stop children in order. Through the tether,
    // whose stdin is a pipe only we hold: when we end, however we end, it stops the child.
    const tether = join(root, 'bin/lib/tethered.sh');
    const proc = spawn('bash', [tether, join(runDir, `${name}.pid`), command, ...args], {
      cwd: root,
      env,
      stdio: ['pipe', 'inherit', 'inherit'],
      detached: true,
    });
    children.push({ name, proc });
    proc.once('exit', (code, signal) => {
      if (!stopping) {
        say(`${name} exited (${signal ?? code}); stopping everything`);
        void stopAll(1);
      }
    });
    return proc;
  };

  startup = startStack(start, () => stopping, stopRequested);
  try {
    await startup;
  } catch (err) {
    if (stopping) return;
    say(`failed: ${err instanceof Error ? err.message : String(err)}`);
    await stopAll(1);
  }
}

type Starter = (name: string, command: string, args: string[], env?: NodeJS.ProcessEnv) => ChildProcess;

async function startStack(start: Starter, isStopping: () => boolean, stopRequested: Promise<void>): Promise<void> {
  // Each wait also ends when a stop begins (a child failed): the start then goes no further.
  const unlessStopped = async <T>(step: Promise<T>): Promise<T | undefined> => Promise.race([step, stopRequested.then(() => undefined)]);
  await stopLeftovers(runDir, temporalDbFile, say);

  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  const uiPort = Number(process.env.TEMPORAL_UI_PORT ?? 8233);
  let temporalUi = process.env.TEMPORAL_UI_URL ?? (temporalAddress ? '(your Temporal UI)' : `http://127.0.0.1:${uiPort}`);
  if (!temporalAddress) {
    const port = Number(process.env.TEMPORAL_PORT ?? 7233);
    if (await portOpen(port)) throw new Error(`port ${port} is in use by another program: stop it, or choose another port with TEMPORAL_PORT`);
    say(`starting the Temporal dev server on 127.0.0.1:${port} (UI on ${uiPort}, state in ${shown(temporalDbFile)})`);
    start('temporal', 'bash', [join(root, 'bin/lib/temporal-dev.sh'), String(port), String(uiPort), temporalDbFile]);
    await unlessStopped(waitForPort(port, 60_000));
    if (isStopping()) return;
    temporalAddress = `127.0.0.1:${port}`;
    temporalUi = `http://127.0.0.1:${uiPort}`;
  }

  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set (bin/up sets it)');
  const port = Number(process.env.PORT ?? 3000);
  const baseUrl = (process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${port}`).replace(/\/+$/, '') + basePath(process.env.API_PREFIX ?? '');
  say('running migrations');
  const creds = await sandboxCredentials(databaseUrl, baseUrl, { dataDir, masterKey: masterKey(), say });
  if (isStopping()) return;

  // Local development: sandbox webhooks may go to a receiver on this machine (docs/webhooks.md: destination policy).
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    MASTER_KEY: masterKey(),
    PORT: String(port),
    WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK ?? '1',
    // The dashboard links a payment to its workflows there.
    ...(/^https?:/.test(temporalUi) ? { TEMPORAL_UI_URL: temporalUi } : {}),
  };
  // The tsx loader in node itself: one process per service (the tsx CLI would fork a second one).
  start('worker', process.execPath, ['--import', 'tsx', 'worker/main.ts'], env);
  start('api', process.execPath, ['--import', 'tsx', 'src/api/main.ts'], env);
  await unlessStopped(
    Promise.race([apiAnswers(port), sleep(120_000).then(() => Promise.reject(new Error(`the API did not answer on port ${port} within 120 s`)))]),
  );
  if (isStopping()) return;
  const { apiMetrics, workerMetrics, temporalMetricsAddress } = loadConfig(env);
  const scrape = (listen: MetricsListen | null) => (listen ? `http://${listen.host}:${listen.port}/metrics` : 'off');

  process.stdout.write(
    [
      '',
      'Payments service is running.',
      `  API base URL:    ${baseUrl}`,
      `  API reference:   ${baseUrl}/reference   (OpenAPI: ${baseUrl}/openapi.json)`,
      `  Dashboard:       ${new URL(baseUrl).origin}/dashboard   (sign in with the sandbox credentials below)`,
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

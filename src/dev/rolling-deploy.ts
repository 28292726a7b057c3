import { Connection } from '@temporalio/client';
import { execFile } from 'node:child_process';
import { createConnection } from 'node:net';
import { promisify } from 'node:util';
import { TASK_QUEUES } from '../temporal/task-queues';

/**
 * Rolling deploys of the production topology (docs/production.md "Rolling deploys"), the same steps whoever runs
 * the processes: `npm run deploy:apis` and `npm run deploy:workers` on `npm run start:cluster` (src/dev/deploy.ts,
 * which asks the cluster's runner), and the drill on a cluster of its own (test/proof/drills/deploys.ts).
 *
 * APIs: one replica at a time is drained in HAProxy (no new request goes to it), stopped once it holds none
 * (SIGTERM), started again on the new build, and put back once it is ready; the other serves meanwhile.
 * Workers: a new build's workers join beside the old ones, versioned (Worker Versioning); once they poll every
 * task queue their version is made current; pinned runs finish on the old build, which is stopped once drained.
 */

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Polls `check` every `everyMs` until it returns a value; throws `what` after `timeoutMs`. */
async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} (waited ${Math.round(timeoutMs / 1000)} s)`);
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// HAProxy's runtime API (the `stats socket` of deploy/haproxy.template.cfg)

/** Sends one command on HAProxy's runtime API socket and resolves with its answer. */
export function haproxyCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const conn = createConnection(socket);
    conn.setTimeout(5_000, () => conn.destroy(new Error(`HAProxy (${socket}) did not answer "${command}"`)));
    conn.on('connect', () => conn.end(`${command}\n`));
    conn.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    conn.on('error', reject);
    conn.on('close', () => resolve(answer));
  });
}

export interface BackendServer {
  server: string;
  /** UP, DOWN, DRAIN, MAINT… (with the check's detail, e.g. "DOWN 1/2"). */
  status: string;
  /** Requests it holds now, and requests queued for it. */
  current: number;
  queued: number;
}

/** The servers of `backend` as `show stat` reports them. */
export async function backendServers(socket: string, backend = 'api_replicas'): Promise<BackendServer[]> {
  const [header, ...rows] = (await haproxyCommand(socket, 'show stat')).split('\n').filter(Boolean);
  const fields = (header ?? '').replace(/^# /, '').split(',');
  const at = (name: string) => fields.indexOf(name);
  return rows
    .map((row) => row.split(','))
    .filter((cells) => cells[at('pxname')] === backend && !['BACKEND', 'FRONTEND'].includes(cells[at('svname')]!))
    .map((cells) => ({ server: cells[at('svname')]!, status: cells[at('status')]!, current: Number(cells[at('scur')]), queued: Number(cells[at('qcur')]) }));
}

async function setServerState(socket: string, server: string, state: 'drain' | 'ready', backend = 'api_replicas'): Promise<void> {
  const answer = (await haproxyCommand(socket, `set server ${backend}/${server} state ${state}`)).trim();
  if (answer) throw new Error(`HAProxy refused to set ${server} to ${state}: ${answer}`);
}

// ---------------------------------------------------------------------------------------------------------------
// (a) The APIs, one at a time

export interface ApiFleet {
  /** HAProxy's runtime API socket. */
  haproxySocket: string;
  /** Each replica: its process name (api-1), its server in HAProxy's backend (api1), its own /ready URL. */
  replicas: { name: string; server: string; readyUrl: string }[];
  /** Stops the replica (SIGTERM: it ends its requests) and starts it on the build now in place; resolves once started. */
  restart(name: string): Promise<void>;
}

export interface ApiRollFigures {
  replicas: { name: string; drainMs: number; restartMs: number; readyMs: number; backMs: number }[];
  totalMs: number;
}

async function answers200(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/**
 * Restarts every API replica in turn without a request failing: drain it (HAProxy sends it no new request), wait
 * until it holds none, stop and start it, wait until its /ready passes, put it back, and wait until HAProxy's own
 * check has it UP before the next one is drained (so some replica always takes requests).
 */
export async function rollApis(
  fleet: ApiFleet,
  say: (line: string) => void,
  timeoutMs = 180_000,
  isReady: (url: string) => Promise<boolean> = answers200,
): Promise<ApiRollFigures> {
  const started = Date.now();
  const figures: ApiRollFigures['replicas'] = [];
  const server = async (name: string) => (await backendServers(fleet.haproxySocket)).find((s) => s.server === name);
  for (const replica of fleet.replicas) {
    const others = fleet.replicas.filter((r) => r !== replica).map((r) => r.server);
    await until(
      `the other API replicas (${others.join(', ')}) are not all UP in HAProxy: not draining ${replica.name}`,
      async () => ((await backendServers(fleet.haproxySocket)).filter((s) => others.includes(s.server)).every((s) => s.status === 'UP') ? true : undefined),
      timeoutMs,
      250,
    );
    const t0 = Date.now();
    say(`${replica.name}: draining (HAProxy server ${replica.server}: no new requests)`);
    await setServerState(fleet.haproxySocket, replica.server, 'drain');
    await until(
      `${replica.name} still holds requests`,
      async () => {
        const s = await server(replica.server);
        return s && s.current === 0 && s.queued === 0 ? true : undefined;
      },
      timeoutMs,
      50,
    );
    const t1 = Date.now();
    say(`${replica.name}: holds no request (${t1 - t0} ms); stopping it (SIGTERM) and starting it on the new build`);
    await fleet.restart(replica.name);
    const t2 = Date.now();
    await until(`${replica.name} did not answer ${replica.readyUrl}`, async () => ((await isReady(replica.readyUrl)) ? true : undefined), timeoutMs, 200);
    const t3 = Date.now();
    await setServerState(fleet.haproxySocket, replica.server, 'ready');
    await until(
      `HAProxy does not have ${replica.name} UP again`,
      async () => ((await server(replica.server))?.status === 'UP' ? true : undefined),
      timeoutMs,
      100,
    );
    const t4 = Date.now();
    say(`${replica.name}: ready on the new build (${t3 - t1} ms after it was stopped); back in HAProxy`);
    figures.push({ name: replica.name, drainMs: t1 - t0, restartMs: t2 - t1, readyMs: t3 - t1, backMs: t4 - t0 });
  }
  return { replicas: figures, totalMs: Date.now() - started };
}

// ---------------------------------------------------------------------------------------------------------------
// (b) The workers, with Worker Versioning

export interface WorkerReplica {
  name: string;
  running: boolean;
  deploymentName?: string;
  buildId?: string;
}

export interface WorkerFleet {
  temporalAddress: string;
  namespace: string;
  /** The `temporal` CLI (bin/lib/temporal-cli.sh prints it). */
  temporalCli: string;
  workers(): Promise<WorkerReplica[]>;
  /** Starts as many workers as run now, versioned as `buildId`, from the compiled build in `buildDir`; resolves with their names. */
  startWorkers(buildId: string, buildDir: string): Promise<string[]>;
  /** Stops a worker for good (SIGTERM: it finishes its in-flight tasks first). */
  retire(name: string): Promise<void>;
}

export interface WorkerRollFigures {
  deploymentName: string;
  from: string[];
  to: string;
  /** From the start until the new version was current (its workers polling every queue), and until the old ones drained. */
  currentMs: number;
  drainedMs: number;
  totalMs: number;
  retired: string[];
}

/** Started unversioned: what an operator does first (docs/production.md "Zero-downtime deploys", step 1). */
export class UnversionedCluster extends Error {
  constructor() {
    super(
      'the cluster runs unversioned workers: a new build cannot be made current beside the old one. Restart it versioned first ' +
        '(docs/production.md "Zero-downtime deploys", step 1): npm run start:cluster -- --stop; ' +
        'WORKER_DEPLOYMENT_NAME=payments-service WORKER_BUILD_ID=<running build> npm run start:cluster; then run this again.',
    );
  }
}

interface VersionInfo {
  drainageInfo?: { drainageStatus?: string };
  taskQueuesInfos?: { name: string; type: string }[];
}

/** `temporal worker deployment …` as docs/production.md has the operator run it, JSON out. */
async function deploymentCli(fleet: WorkerFleet, ...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(fleet.temporalCli, [
    'worker',
    'deployment',
    ...args,
    '--address',
    fleet.temporalAddress,
    '--namespace',
    fleet.namespace,
    '-o',
    'json',
  ]);
  return stdout.trim() ? (JSON.parse(stdout) as Record<string, unknown>) : {};
}

const describeVersion = (fleet: WorkerFleet, deploymentName: string, buildId: string) =>
  deploymentCli(fleet, 'describe-version', '--deployment-name', deploymentName, '--build-id', buildId).then(
    (info) => info as VersionInfo,
    () => undefined,
  );

/** The build id of the deployment's current version, if it has one. */
async function currentBuild(fleet: WorkerFleet, deploymentName: string): Promise<string | undefined> {
  const connection = await Connection.connect({ address: fleet.temporalAddress });
  try {
    const { workerDeploymentInfo } = await connection.workflowService.describeWorkerDeployment({ namespace: fleet.namespace, deploymentName });
    return workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId || undefined;
  } catch (err) {
    if (/not found/i.test(err instanceof Error ? err.message : String(err))) return undefined;
    throw err;
  } finally {
    await connection.close();
  }
}

/**
 * Waits until `buildId` polls every task queue's workflow tasks, and every queue (either type) the version it
 * replaces polls (the server refuses a current version that leaves one unpolled), then makes it current.
 */
async function makeCurrent(
  fleet: WorkerFleet,
  deploymentName: string,
  buildId: string,
  replacing: string | undefined,
  timeoutMs: number,
  beforeCurrent?: () => void,
  say?: (line: string) => void,
): Promise<void> {
  const needed = [
    ...new Set([
      ...TASK_QUEUES.map((name) => `${name}/workflow`),
      ...((replacing ? (await describeVersion(fleet, deploymentName, replacing))?.taskQueuesInfos : undefined) ?? []).map((q) => `${q.name}/${q.type}`),
    ]),
  ];
  // A busy server registers a new version's queues one poll at a time: minutes on a loaded machine.
  let missing = needed;
  let lastSaid = Date.now();
  await until(
    `${deploymentName}:${buildId} does not poll every task queue yet (missing: ${missing.join(', ')}); run this again to wait on`,
    async () => {
      const polled = ((await describeVersion(fleet, deploymentName, buildId))?.taskQueuesInfos ?? []).map((q) => `${q.name}/${q.type}`);
      missing = needed.filter((want) => !polled.includes(want));
      if (missing.length && Date.now() - lastSaid > 30_000) {
        say?.(`${deploymentName}:${buildId} polls ${needed.length - missing.length} of ${needed.length} task queues; waiting for ${missing.join(', ')}`);
        lastSaid = Date.now();
      }
      return missing.length === 0 ? true : undefined;
    },
    timeoutMs,
    1_000,
  );
  beforeCurrent?.();
  // The deployment is the server's own workflow: on a loaded machine it has answered "Worker Deployment not found"
  // to a first command (docs/testing.md, run 18); sending it again is the answer. Any other refusal stops here.
  await until(
    `${deploymentName}:${buildId} could not be made current`,
    () =>
      deploymentCli(fleet, 'set-current-version', '--deployment-name', deploymentName, '--build-id', buildId, '--yes').then(
        () => true,
        (err: Error) => {
          if (/Worker Deployment not found/.test(err.message)) return undefined;
          throw err;
        },
      ),
    timeoutMs,
    1_000,
  );
}

/**
 * The running workers' deployment and its current version; a deployment started versioned but never made current
 * (new workflows wait until some version is: step 1 of the manual way) has the running build made current first.
 */
export async function ensureCurrentVersion(
  fleet: WorkerFleet,
  say: (line: string) => void,
  timeoutMs = 900_000,
): Promise<{ deploymentName: string; current: string; running: WorkerReplica[] }> {
  const running = (await fleet.workers()).filter((w) => w.running);
  if (running.length === 0) throw new Error('no worker is running');
  if (running.some((w) => !w.deploymentName || !w.buildId)) throw new UnversionedCluster();
  const deploymentName = running[0]!.deploymentName!;
  const current = await currentBuild(fleet, deploymentName);
  if (current) return { deploymentName, current, running };
  const first = running[0]!.buildId!;
  say(`${deploymentName}:${first} is not current yet: making it current first`);
  await makeCurrent(fleet, deploymentName, first, undefined, timeoutMs, undefined, say);
  return { deploymentName, current: first, running };
}

/**
 * Deploys worker build `buildId` (compiled in `buildDir`) over the running one. Idempotent: run again after a
 * timeout, it skips what is done (B's workers running, B current) and goes on waiting for the old build to drain.
 * `beforeCurrent` and `onCurrent` are called just before B is made current and once it is (the drill notes which
 * payouts started before and after).
 */
export async function rollWorkers(
  fleet: WorkerFleet,
  target: { buildId: string; buildDir: string },
  say: (line: string) => void,
  options: { timeoutMs?: number; drainTimeoutMs?: number; beforeCurrent?: () => void; onCurrent?: () => void } = {},
): Promise<WorkerRollFigures> {
  const { timeoutMs = 900_000, drainTimeoutMs = 3_600_000 } = options;
  const started = Date.now();
  const { deploymentName, current, running } = await ensureCurrentVersion(fleet, say, timeoutMs);
  const old = running.filter((w) => w.buildId !== target.buildId);
  const oldBuilds = [...new Set(old.map((w) => w.buildId!))];
  let currentMs = 0;
  if (current !== target.buildId) {
    if (!running.some((w) => w.buildId === target.buildId)) {
      const names = await fleet.startWorkers(target.buildId, target.buildDir);
      say(`started ${names.join(', ')} as ${deploymentName}:${target.buildId} (from ${target.buildDir})`);
    }
    await makeCurrent(fleet, deploymentName, target.buildId, current, timeoutMs, options.beforeCurrent, say);
    currentMs = Date.now() - started;
    say(`${deploymentName}:${target.buildId} is current (${currentMs} ms): new workflows run on it; pinned ones stay on ${oldBuilds.join(', ') || current}`);
  } else say(`${deploymentName}:${target.buildId} is already current`);
  options.onCurrent?.();

  const retired: string[] = [];
  let lastSaid = Date.now();
  for (const build of oldBuilds) {
    await until(
      `${deploymentName}:${build} has not drained (pinned workflows still run on it): its workers keep running; run this again to wait on, or see docs/production.md "Zero-downtime deploys" step 5`,
      async () => {
        const status = (await describeVersion(fleet, deploymentName, build))?.drainageInfo?.drainageStatus;
        if (status !== 'drained' && Date.now() - lastSaid > 30_000) {
          say(`${deploymentName}:${build} is ${status ?? 'not reported yet'}; waiting until it is drained`);
          lastSaid = Date.now();
        }
        return status === 'drained' ? true : undefined;
      },
      drainTimeoutMs,
      2_000,
    );
    for (const worker of old.filter((w) => w.buildId === build)) {
      await fleet.retire(worker.name);
      retired.push(worker.name);
    }
    say(
      `${deploymentName}:${build} drained; stopped its workers (${old
        .filter((w) => w.buildId === build)
        .map((w) => w.name)
        .join(', ')})`,
    );
  }
  const drainedMs = Date.now() - started;
  return { deploymentName, from: oldBuilds, to: target.buildId, currentMs, drainedMs, totalMs: Date.now() - started, retired };
}

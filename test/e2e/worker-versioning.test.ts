import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ActivityDeps } from '../../activities';
import { freePorts, waitForPort } from '../../src/dev/ports';
import { ensureSearchAttributes } from '../../src/temporal/register-search-attributes';
import type { TaskQueue } from '../../src/temporal/task-queues';
import type { StablecoinIssuanceInput } from '../../workflows/stablecoins/definitions';
import type { WebhookDeliveryInput } from '../../workflows/webhooks/definitions';
import { bundleWorkflows, createWorkers } from '../../worker/worker';
import { quietTemporalRuntime } from '../support/bundled-worker';
import { eventually } from '../support/eventually';

// A deploy without downtime, as docs/production.md "Zero-downtime deploys" tells an operator to run it, on the dev server of
// `npm start` (bin/lib/temporal-dev.sh, with its drainage settings): build A's workers run and A is made current
// with the `temporal` CLI; a pinned workflow (a stablecoin issuance) and an auto-upgrade one (a webhook delivery)
// start on A and wait on durable timers; build B's workers join and B is made current. New workflows run on B;
// the pinned one finishes on A, the auto-upgrade one moves to B; A's version reports DRAINED, its workers stop,
// and work goes on without them. The workflow code is the service's, versioned as worker/worker.ts builds it;
// the activities are stand-ins that record which build ran them (what they do is not the point here).

const root = resolve(__dirname, '../..');
const run = promisify(execFile);
const QUEUES: TaskQueue[] = ['stablecoins', 'webhooks'];
const deploymentName = `payments-test-${randomUUID().slice(0, 8)}`;
const timing = { reviewSeconds: 1, provisioningSeconds: 1, fundingWindowSeconds: 1, providerSeconds: 1, settlementSeconds: 1 };

let server: ChildProcess;
let stateDir: string;
let address: string;
let connection: NativeConnection;
let clientConnection: Connection;
let client: Client;
let bundle: { code: string };
const builds: { buildId: string; workers: Worker[]; runs: Promise<void>[] }[] = [];

/** Which build ran which activity for which workflow. */
const ran: { build: string; activity: string; workflowId: string }[] = [];
const issuance = new Map<string, string>();
const NEXT: Record<string, string> = { PENDING_REVIEW: 'PROVISIONING', PROVISIONING: 'PROVISIONED' };

function standIns(build: string) {
  return {
    async stablecoinIssuanceStatus({ stablecoinId }: { stablecoinId: string }) {
      ran.push({ build, activity: 'stablecoinIssuanceStatus', workflowId: stablecoinId });
      if (!issuance.has(stablecoinId)) issuance.set(stablecoinId, 'PENDING_REVIEW');
      return issuance.get(stablecoinId)!;
    },
    async advanceStablecoinIssuance({ stablecoinId }: { stablecoinId: string }) {
      ran.push({ build, activity: 'advanceStablecoinIssuance', workflowId: stablecoinId });
      issuance.set(stablecoinId, NEXT[issuance.get(stablecoinId)!]!);
      return issuance.get(stablecoinId)!;
    },
    async deliverWebhook({ eventId }: { eventId: string }) {
      ran.push({ build, activity: 'deliverWebhook', workflowId: eventId });
      return { kind: 'DELIVERED', status: 200 };
    },
  };
}

async function startBuild(buildId: string): Promise<void> {
  const workers = await createWorkers(
    {
      connection,
      namespace: 'default',
      // Unused: the stand-ins below replace createActivities(deps).
      deps: {} as ActivityDeps,
      activities: standIns(buildId),
      workflowBundle: bundle,
      deployment: { deploymentName, buildId },
    },
    QUEUES,
  );
  builds.push({ buildId, workers, runs: workers.map((worker) => worker.run()) });
}

async function stopBuild(buildId: string): Promise<void> {
  const build = builds.find((b) => b.buildId === buildId)!;
  for (const worker of build.workers) if (worker.getState() === 'RUNNING') worker.shutdown();
  await Promise.all(build.runs);
}

/** The operator's `temporal worker deployment …` commands, JSON out. */
async function deploymentCli(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.env.TEMPORAL_CLI_PATH!, ['worker', 'deployment', ...args, '--address', address, '--namespace', 'default', '-o', 'json']);
  return stdout.trim() ? (JSON.parse(stdout) as Record<string, unknown>) : {};
}

interface VersionInfo {
  drainageInfo?: { drainageStatus?: string };
  taskQueuesInfos?: { name: string; type: string }[];
}

async function describeVersion(buildId: string): Promise<VersionInfo | null> {
  return deploymentCli('describe-version', '--deployment-name', deploymentName, '--build-id', buildId).then(
    (info) => info as VersionInfo,
    () => null,
  );
}

/**
 * Once the build polls every queue, the build becomes current. The server refuses a current version missing a
 * queue the current one has, workflow or activity alike: on a loaded machine a build's activity pollers can be
 * seen after its workflow pollers, so the wait covers every queue of the build it replaces too.
 */
async function makeCurrent(buildId: string, replacing?: string): Promise<void> {
  const needed = [
    ...QUEUES.map((name) => ({ name, type: 'workflow' })),
    ...(replacing ? ((await describeVersion(replacing))?.taskQueuesInfos ?? []).map(({ name, type }) => ({ name, type })) : []),
  ];
  const polled = await eventually(
    () => describeVersion(buildId),
    (info) => needed.every((want) => info?.taskQueuesInfos?.some((q) => q.name === want.name && q.type === want.type)),
    60_000,
  );
  expect(polled?.taskQueuesInfos?.filter((q) => q.type === 'workflow').map((q) => q.name)).toEqual(expect.arrayContaining(QUEUES));
  // The deployment is the server's own workflow; on one loaded core its conflict-token read has answered
  // "Worker Deployment not found" for a deployment with a current version (run 18, docs/testing.md). The
  // operator's answer is to send the command again; any other refusal fails the test at once.
  await eventually(
    () =>
      deploymentCli('set-current-version', '--deployment-name', deploymentName, '--build-id', buildId, '--yes').then(
        () => 'current',
        (err: Error) => {
          if (/Worker Deployment not found/.test(err.message)) return err.message;
          throw err;
        },
      ),
    (outcome) => outcome === 'current',
    60_000,
  );
}

/** The build a workflow's tasks go to and how it follows new builds, as the server records it. */
async function versioning(workflowId: string): Promise<{ buildId?: string; behavior?: string }> {
  const info = (await client.workflow.getHandle(workflowId).describe()).raw.workflowExecutionInfo?.versioningInfo;
  return {
    buildId: info?.deploymentVersion?.buildId ?? undefined,
    behavior: info?.behavior ? temporal.api.enums.v1.VersioningBehavior[info.behavior] : undefined,
  };
}

function startIssuance(id: string, reviewSeconds: number) {
  const input: StablecoinIssuanceInput = { stablecoinId: id, platformId: 'platform-test', timing: { ...timing, reviewSeconds } };
  return client.workflow.start('stablecoinIssuance', { workflowId: id, taskQueue: 'stablecoins', args: [input] });
}

const buildsOf = (workflowId: string) => [...new Set(ran.filter((r) => r.workflowId === workflowId).map((r) => r.build))];

beforeAll(async () => {
  quietTemporalRuntime();
  const [port, uiPort] = await freePorts(2);
  address = `127.0.0.1:${port}`;
  stateDir = mkdtempSync(join(tmpdir(), 'payments-versioning-'));
  server = spawn('bash', [join(root, 'bin/lib/temporal-dev.sh'), String(port), String(uiPort), join(stateDir, 'temporal.sqlite')], { stdio: 'ignore' });
  await waitForPort(port!, 60_000);
  clientConnection = await Connection.connect({ address });
  await ensureSearchAttributes(clientConnection, 'default');
  client = new Client({ connection: clientConnection });
  connection = await NativeConnection.connect({ address });
  bundle = await bundleWorkflows([], { versioned: true });
}, 180_000);

afterAll(async () => {
  for (const { buildId } of builds) await stopBuild(buildId);
  await connection?.close();
  await clientConnection?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGINT');
    await exited;
  }
  rmSync(stateDir, { recursive: true, force: true });
}, 60_000);

test('a new build joins while the old one finishes its pinned workflows, then the old one drains and stops', async () => {
  await startBuild('A');
  await makeCurrent('A');

  // On A: a pinned issuance waiting 15 s on a durable timer, and an auto-upgrade webhook delivery waiting 15 s.
  const old = await startIssuance(`sc-old-${randomUUID()}`, 15);
  const delivery: WebhookDeliveryInput = { eventId: `wh-old-${randomUUID()}`, firstAttemptAfterSeconds: 15 };
  const oldDelivery = await client.workflow.start('webhookDelivery', { workflowId: delivery.eventId, taskQueue: 'webhooks', args: [delivery] });
  expect(
    await eventually(
      () => versioning(old.workflowId),
      (v) => v.buildId !== undefined,
    ),
  ).toEqual({ buildId: 'A', behavior: 'VERSIONING_BEHAVIOR_PINNED' });
  expect(
    await eventually(
      () => versioning(oldDelivery.workflowId),
      (v) => v.buildId !== undefined,
    ),
  ).toEqual({
    buildId: 'A',
    behavior: 'VERSIONING_BEHAVIOR_AUTO_UPGRADE',
  });

  await startBuild('B');
  await makeCurrent('B', 'A');

  // New work runs on B while A still holds the old run.
  const fresh = await startIssuance(`sc-new-${randomUUID()}`, 1);
  expect(await fresh.result()).toEqual({ issuanceStatus: 'PROVISIONED' });
  expect(buildsOf(fresh.workflowId)).toEqual(['B']);
  expect(await versioning(fresh.workflowId)).toEqual({ buildId: 'B', behavior: 'VERSIONING_BEHAVIOR_PINNED' });
  expect((await describeVersion('A'))?.drainageInfo?.drainageStatus).toBe('draining');

  // The pinned run finishes on A, every step of it; the auto-upgrade one moved to B at its next task.
  expect(await old.result()).toEqual({ issuanceStatus: 'PROVISIONED' });
  expect(buildsOf(old.workflowId)).toEqual(['A']);
  expect((await versioning(old.workflowId)).buildId).toBe('A');
  expect(await oldDelivery.result()).toMatchObject({ delivered: true, attempts: 1 });
  expect(buildsOf(oldDelivery.workflowId)).toEqual(['B']);

  // A has nothing left to run: it reports DRAINED, its workers stop, and work goes on on B alone.
  const drained = await eventually(
    () => describeVersion('A'),
    (info) => info?.drainageInfo?.drainageStatus === 'drained',
    60_000,
  );
  expect(drained?.drainageInfo?.drainageStatus).toBe('drained');
  await stopBuild('A');
  const after = await startIssuance(`sc-after-${randomUUID()}`, 1);
  expect(await after.result()).toEqual({ issuanceStatus: 'PROVISIONED' });
  expect(buildsOf(after.workflowId)).toEqual(['B']);
}, 240_000);

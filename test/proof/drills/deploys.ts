import { Client, Connection } from '@temporalio/client';
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import {
  ensureCurrentVersion,
  rollApis,
  rollWorkers,
  type ApiFleet,
  type ApiRollFigures,
  type WorkerFleet,
  type WorkerRollFigures,
} from '../../../src/dev/rolling-deploy';
import { ClusterStack } from '../cluster-stack';
import { PartnerClient, PayoutLoad, preparePayer, type Payer } from '../partner-load';
import { ledgerFindings } from '../ledger-findings';

/**
 * `npm run drill -- deploys`: both rolling deploys of docs/production.md "Rolling deploys" under payout load, on the
 * production topology of its own (test/proof/cluster-stack.ts, workers versioned as build A), driven by the same
 * module as `npm run deploy:apis` and `npm run deploy:workers` (src/dev/rolling-deploy.ts):
 *   (a) both APIs restarted one at a time, each drained in HAProxy first: no request fails, retries counted;
 *   (b) build B compiled into a folder of its own, its workers started beside A's, made current; A drains and its
 *       workers stop: every payout COMPLETED, the ledger audit clean, payouts started before the switch ran on A,
 *       those started after on B (each workflow's deployment version, as the server records it).
 * Prints its figures as plain lines and exits non-zero when a check fails. test/e2e/deploys.test.ts runs the short form.
 */

const root = resolve(__dirname, '../../..');

export interface DeploysDrillOptions {
  name: string;
  payouts: number;
  inFlight: number;
  /** `compile`: tsc into B's folder, as the operator's script does; `copy`: dist/ copied there (the same code, seconds instead of minutes). */
  buildB: 'compile' | 'copy';
  /** The server's drainage checks: production's (30 s, 1 min) or quick ones (5 s, 5 s) for CI. */
  drainage: 'production' | 'quick';
  say?: (line: string) => void;
}

export interface DeploysDrillResult {
  apis: ApiRollFigures;
  workers: WorkerRollFigures;
  requests: { duringApis: number; retriedDuringApis: Record<string, number>; total: number; retried: Record<string, number>; failed: string[] };
  payouts: {
    count: number;
    completed: number;
    onA: number;
    onB: number;
    /** Payouts of A whose workflow closed after B's set-current-version was sent: in flight on A at the switch, finished there. */
    onAFinishedAfterSwitch: number;
    startedBeforeSwitch: number;
    startedAfterSwitch: number;
    settledMs: number;
    misplaced: string[];
  };
  /** Workers whose version was A still running at the end; exits the stack did not ask for. */
  oldWorkersRunning: string[];
  unplannedExits: Record<string, number>;
  auditFindings: unknown[];
}

/** The checks, as lines; empty when the drill passed. */
export function failedChecks(result: DeploysDrillResult): string[] {
  const problems: string[] = [];
  if (result.requests.failed.length) problems.push(`${result.requests.failed.length} requests failed: ${result.requests.failed.slice(0, 3).join('; ')}`);
  if (result.payouts.completed !== result.payouts.count) problems.push(`${result.payouts.count - result.payouts.completed} payouts did not complete`);
  if (result.payouts.misplaced.length) problems.push(`payouts on the wrong build: ${result.payouts.misplaced.slice(0, 5).join('; ')}`);
  if (result.payouts.onA === 0 || result.payouts.onB === 0)
    problems.push(`payouts per build: A ${result.payouts.onA}, B ${result.payouts.onB} (each should have some)`);
  if (result.oldWorkersRunning.length) problems.push(`A's workers still run: ${result.oldWorkersRunning.join(', ')}`);
  const exits = Object.entries(result.unplannedExits).filter(([, n]) => n > 0);
  if (exits.length) problems.push(`processes exited on their own: ${JSON.stringify(Object.fromEntries(exits))}`);
  if (result.auditFindings.length) problems.push(`ledger audit: ${JSON.stringify(result.auditFindings).slice(0, 500)}`);
  return problems;
}

export function figureLines(result: DeploysDrillResult): string[] {
  const { apis, workers, requests, payouts } = result;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    `(a) APIs rolled one at a time in ${s(apis.totalMs)}: ${apis.replicas.map((r) => `${r.name} drained in ${r.drainMs} ms, ready ${s(r.readyMs)} after its stop, back in HAProxy after ${s(r.backMs)}`).join('; ')}`,
    `(a) requests meanwhile: ${requests.duringApis}, sent again ${JSON.stringify(requests.retriedDuringApis)}, failed ${requests.failed.length}`,
    `(b) workers: ${workers.deploymentName}:${workers.to} current ${s(workers.currentMs)} after B's workers were started; ${workers.from.join(', ')} drained and its workers (${workers.retired.join(', ')}) stopped after ${s(workers.drainedMs)}`,
    `(b) payouts: ${payouts.count}, ${payouts.completed} COMPLETED in ${s(payouts.settledMs)}; ran on A ${payouts.onA} (${payouts.onAFinishedAfterSwitch} of them finished on A after B's set-current-version was sent), on B ${payouts.onB}; executed before the switch ${payouts.startedBeforeSwitch} (all on A), after it ${payouts.startedAfterSwitch} (all on B)`,
    `requests in all: ${requests.total}, sent again ${JSON.stringify(requests.retried)}, failed ${requests.failed.length}; ledger audit findings: ${result.auditFindings.length}; unplanned exits: ${Object.values(result.unplannedExits).reduce((a, b) => a + b, 0)}`,
  ];
}

/**
 * Payouts without end until stop(): PayoutLoad batches of three per lane, one after the other, so that payouts are in
 * flight whenever the deploy switches builds, however long each step takes on the machine.
 */
class SteadyLoad {
  private readonly loads: PayoutLoad[] = [];
  private stopping = false;
  private readonly running: Promise<void>;
  readonly startedAt = Date.now();

  constructor(partner: PartnerClient, payer: Payer, inFlight: number) {
    this.running = (async () => {
      while (!this.stopping) {
        const batch = new PayoutLoad(partner, payer, inFlight * 3, inFlight);
        this.loads.push(batch);
        await batch.sent;
      }
    })();
  }

  /** Every payout executed so far, in order. */
  get ids(): string[] {
    return this.loads.flatMap((load) => load.transactionIds);
  }

  async executed(n: number, timeoutMs = 600_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.ids.length < n) {
      if (Date.now() > deadline) throw new Error(`${n} payouts not executed within ${timeoutMs / 1000} s (${this.ids.length} were)`);
      await new Promise((done) => setTimeout(done, 200));
    }
  }

  /** Ends the load after its current batch; resolves once every payout is final. */
  async stop(): Promise<{ states: Map<string, string>; elapsedMs: number }> {
    this.stopping = true;
    await this.running;
    const states = new Map<string, string>();
    for (const load of this.loads) for (const [id, status] of (await load.settled(600_000)).states) states.set(id, status);
    return { states, elapsedMs: Date.now() - this.startedAt };
  }
}

/** A webhook receiver that accepts everything, so that the platform's webhook deliveries end. */
async function webhookReceiver(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/webhooks`, server };
}

function temporalCliPath(): string {
  if (process.env.TEMPORAL_CLI_PATH) return process.env.TEMPORAL_CLI_PATH;
  const found = spawnSync('bash', [join(root, 'bin/lib/temporal-cli.sh')], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error(`bin/lib/temporal-cli.sh failed: ${found.stderr}`);
  return found.stdout.trim();
}

/** B's compiled build in a folder of its own, as bin/deploy makes it (without blocking the load meanwhile). */
async function buildB(stack: ClusterStack, how: 'compile' | 'copy'): Promise<string> {
  const dir = join(stack.dir, 'builds/B');
  rmSync(dir, { recursive: true, force: true });
  if (how === 'copy') cpSync(join(root, 'dist'), dir, { recursive: true });
  else await promisify(execFile)(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--outDir', dir], { cwd: root });
  if (!existsSync(join(dir, 'worker/main.js'))) throw new Error(`no worker/main.js in ${dir}`);
  return dir;
}

export async function runDeploysDrill(options: DeploysDrillOptions): Promise<DeploysDrillResult> {
  const say = options.say ?? ((line: string) => process.stderr.write(`[drill:deploys] ${line}\n`));
  if (!process.env.HAPROXY) {
    const found = spawnSync('bash', [join(root, 'bin/lib/haproxy.sh')], { encoding: 'utf8' });
    if (found.status !== 0) throw new Error(`bin/lib/haproxy.sh failed: ${found.stderr}`);
    process.env.HAPROXY = found.stdout.trim();
  }
  const receiver = await webhookReceiver();
  const stack = await ClusterStack.start({
    name: options.name,
    say,
    env: { WORKER_DEPLOYMENT_NAME: 'payments-drill', WORKER_BUILD_ID: 'A' },
    ...(options.drainage === 'quick' ? { drainage: { refresh: '5s', grace: '5s' } } : {}),
  });
  const connection = await Connection.connect({ address: stack.temporalAddress });
  try {
    const apiFleet: ApiFleet = {
      haproxySocket: stack.haproxySocket,
      replicas: stack.apiProcesses.map((name) => ({ name, server: name.replace('-', ''), readyUrl: stack.apiReadyUrl(name) })),
      restart: (name) => stack.restartGracefully(name),
    };
    const workerFleet: WorkerFleet = {
      temporalAddress: stack.temporalAddress,
      namespace: 'default',
      temporalCli: temporalCliPath(),
      workers: async () => stack.workers(),
      startWorkers: (buildId, dir) => stack.startWorkerBuild(buildId, dir),
      retire: (name) => stack.stopGracefully(name),
    };
    // Versioned workers take no workflow until their version is current (what deploy:workers does first, too).
    await ensureCurrentVersion(workerFleet, say);

    const platform = await stack.sandboxPartner('drill-deploys', receiver.url);
    const partner = new PartnerClient(stack.baseUrl, platform.authorization);
    const payer = await preparePayer(partner, 'drill-deploys', 100_000_000);
    const load = new SteadyLoad(partner, payer, options.inFlight);
    await load.executed(Math.ceil(options.payouts / 10));

    say('(a) rolling the APIs under load');
    const before = { requests: partner.requests, retries: { ...partner.retries } };
    const apis = await rollApis(apiFleet, say);
    const retriedDuringApis = Object.fromEntries(
      Object.entries(partner.retries)
        .map(([cause, n]) => [cause, n - (before.retries[cause] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    );
    const duringApis = partner.requests - before.requests;

    say('(b) deploying worker build B under load');
    const compiling = Date.now();
    const dirB = await buildB(stack, options.buildB);
    say(`B compiled into ${dirB} in ${((Date.now() - compiling) / 1000).toFixed(1)} s (${options.buildB === 'copy' ? 'dist/ copied' : 'tsc'})`);
    const switchAt = { before: 0, after: 0, at: 0 };
    const workers = await rollWorkers(workerFleet, { buildId: 'B', buildDir: dirB }, say, {
      drainTimeoutMs: 600_000,
      beforeCurrent: () => ((switchAt.before = load.ids.length), (switchAt.at = Date.now())),
      onCurrent: () => (switchAt.after = load.ids.length),
    });
    // Payouts go on after the switch (on B) until there are as many as asked, and some after it in any case.
    await load.executed(Math.max(options.payouts, switchAt.after + Math.ceil(options.payouts / 5)));
    const { states, elapsedMs } = await load.stop();
    say(`payouts executed before B was current: ${switchAt.before}; after it: ${load.ids.length - switchAt.before}`);

    const client = new Client({ connection });
    const builds = new Map<string, { build: string; closedAfterSwitch: boolean }>();
    const ids = load.ids;
    for (const id of ids) {
      const described = await client.workflow.getHandle(id).describe();
      const build = described.raw.workflowExecutionInfo?.versioningInfo?.deploymentVersion?.buildId ?? 'unversioned';
      builds.set(id, { build, closedAfterSwitch: (described.closeTime?.getTime() ?? 0) > switchAt.at });
    }
    // Executed before B was made current: on A. Executed once every lane had sent a request after the switch: on B.
    // The few in between may have started on either.
    const afterFrom = switchAt.after + options.inFlight;
    const misplaced = ids.flatMap((id, i) => {
      const want = i < switchAt.before ? 'A' : i >= afterFrom ? 'B' : undefined;
      const ran = builds.get(id)?.build;
      return want && ran !== want ? [`${id} (#${i}) ran on ${ran}, not ${want}`] : [];
    });
    const auditFindings = await ledgerFindings(stack.databaseUrl);
    const onBuild = (build: string) => [...builds.values()].filter((b) => b.build === build).length;
    return {
      apis,
      workers,
      requests: { duringApis, retriedDuringApis, total: partner.requests, retried: { ...partner.retries }, failed: [...partner.failed] },
      payouts: {
        count: ids.length,
        completed: [...states.values()].filter((status) => status === 'COMPLETED').length,
        onA: onBuild('A'),
        onB: onBuild('B'),
        onAFinishedAfterSwitch: [...builds.values()].filter((b) => b.build === 'A' && b.closedAfterSwitch).length,
        startedBeforeSwitch: switchAt.before,
        startedAfterSwitch: Math.max(0, ids.length - afterFrom),
        settledMs: elapsedMs,
        misplaced,
      },
      oldWorkersRunning: stack
        .workers()
        .filter((w) => w.buildId === 'A' && w.running)
        .map((w) => w.name),
      unplannedExits: { ...stack.unplannedExits },
      auditFindings,
    };
  } finally {
    await connection.close();
    await stack.stop();
    receiver.server.close();
  }
}

if (require.main === module) {
  const payouts = Number(process.env.DRILL_PAYOUTS ?? 150);
  runDeploysDrill({ name: 'drill-deploys', payouts, inFlight: 6, buildB: 'compile', drainage: 'production' })
    .then((result) => {
      for (const line of figureLines(result)) process.stdout.write(`${line}\n`);
      const problems = failedChecks(result);
      for (const problem of problems) process.stdout.write(`FAILED: ${problem}\n`);
      if (!problems.length) process.stdout.write('drill:deploys passed\n');
      process.exit(problems.length ? 1 : 0);
    })
    .catch((err: unknown) => {
      process.stderr.write(`[drill:deploys] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    });
}

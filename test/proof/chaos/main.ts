import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { WebhookReceiver } from '../../support/receiver';
import { ClusterStack } from '../cluster-stack';
import type { ProofStack } from '../proof-stack';
import { Random } from '../random';
import { faultSteps, type Fault } from '../faults/steps';
import { Toxiproxy } from '../faults/toxiproxy';
import { faultsCheck } from '../faults/verdict';
import { Stack } from '../stack';
import { PartnerClient } from './client';
import { killThroughout, type Kill } from './killer';
import { judge, type Check } from './verdict';
import { routedAround } from './routed-around';
import { setUpIssuer } from './stablecoin-workload';
import { webhookFlood, type FloodResult } from './webhook-flood';
import { nextOperation, perform, setUp, type Outcome } from './workload';

/**
 * `npm run chaos [-- --minutes N --seed S --kills-each K --concurrency C --topology dev|cluster --faults]`: the crash campaign.
 * With `--faults`, toxiproxy stands between the workers and the APIs and their PostgreSQL and Temporal,
 * and the plan has four network faults besides the kills (test/proof/faults/steps.ts).
 * Starts the stack from the project's own scripts, drives a seeded mix of partner work over
 * REST and meanwhile SIGKILLs PostgreSQL, Temporal, the worker and the API one at a time,
 * restarting each; then lets the work settle and checks it. The operations and the kill plan
 * follow from the seed; their interleaving with real time does not, so a replay reproduces the
 * campaign's shape rather than its exact timing.
 */

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '3' },
    seed: { type: 'string' },
    'kills-each': { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '6' },
    customers: { type: 'string', default: '6' },
    // dev: the stack `npm start` runs; cluster: the production topology (test/proof/cluster-stack.ts) plus the webhook-flood check.
    topology: { type: 'string', default: 'dev' },
    'flood-customers': { type: 'string', default: '1000' },
    'flood-samples': { type: 'string', default: '30' },
    faults: { type: 'boolean', default: false },
  },
});
if (args.topology !== 'dev' && args.topology !== 'cluster') throw new Error(`--topology is dev or cluster, not ${args.topology}`);
const cluster = args.topology === 'cluster';

const minutes = Number(args.minutes);
const seed = args.seed !== undefined ? Number(args.seed) : Math.floor(Math.random() * 2 ** 31);
const killsEach = Number(args['kills-each']);
const concurrency = Number(args.concurrency);
const INITIAL_FUNDING = 5_000_000;
/** Failed deliveries back off 30 s, 60 s, 120 s…: long enough to see every repeat through. */
const DRAIN_SECONDS = 8 * 60;
const RECEIVER_FAILURE_RATE = 0.1;

const started = Date.now();
const say = (m: string) => process.stderr.write(`[chaos +${Math.round((Date.now() - started) / 1000)}s] ${m}\n`);

async function main(): Promise<number> {
  say(`seed ${seed}, ${minutes} min, each process killed ${killsEach}×${args.faults ? ', network faults' : ''}, ${concurrency} partners in parallel`);
  const receiverRandom = new Random(seed ^ 0x5eed);
  let receiverFails = true;
  const receiver = await new WebhookReceiver().start();
  // The partner's receiver sometimes fails (until the campaign ends), so deliveries are retried.
  const delivered = new Set<string>();
  receiver.respond = (hook) => {
    if (receiverFails && receiverRandom.next() < RECEIVER_FAILURE_RATE) return 503;
    delivered.add(hook.body.id);
    return 200;
  };

  const toxiproxy = args.faults ? await Toxiproxy.start(resolve(__dirname, '../../../.data')) : undefined;
  const through = toxiproxy ? ', each link through toxiproxy' : '';
  say(
    cluster
      ? `starting the cluster (PostgreSQL, Temporal server, 2 workers, 2 APIs, HAProxy${through})`
      : `starting the stack (PostgreSQL, Temporal, worker, API${through})`,
  );
  const options = { say, ...(toxiproxy ? { upstream: toxiproxy.upstream } : {}) };
  const stack: ProofStack = await (cluster ? ClusterStack.start({ name: 'chaos-cluster', ...options }) : Stack.start({ name: 'chaos', ...options })).catch(
    async (err: unknown) => {
      await toxiproxy?.stop();
      throw err;
    },
  );
  const faults: Fault[] = [];
  try {
    const partner = await stack.sandboxPartner('chaos', receiver.url);
    const client = new PartnerClient(stack.baseUrl, partner.authorization);
    const customers = await setUp(client, Number(args.customers), INITIAL_FUNDING);
    const issuer = await setUpIssuer(client);
    const publicKey = await client.call('GET', '/webhooks/public-key');
    say(`set up ${customers.length} customers and stablecoin ${issuer.stablecoinId}; campaign begins`);

    const outcomes: Outcome[] = [];
    const campaignEnds = Date.now() + minutes * 60_000;
    let sequence = 0;
    // The work goes on until the plan is through, so that the last step's recovery is read under load.
    let disrupting = true;
    const partners = Array.from({ length: concurrency }, async () => {
      while (Date.now() < campaignEnds || disrupting) {
        const i = sequence++;
        // Operation i follows from the seed alone, whichever partner happens to take it.
        const operation = nextOperation(new Random(seed * 1_000_003 + i), customers, i, minutes >= 10);
        outcomes.push(await perform(client, issuer, operation));
      }
    });
    const steps = toxiproxy ? faultSteps(stack, toxiproxy, say, faults) : [];
    const kills: Kill[] = await killThroughout(stack, new Random(seed), stack.components, killsEach, minutes * 60 * 0.9, say, steps).finally(
      () => (disrupting = false),
    );
    await Promise.all(partners);
    receiverFails = false;
    say(`campaign over: ${outcomes.length} operations, ${kills.length} kills, ${faults.length} network faults`);

    const checks = await judge({
      databaseUrl: stack.databaseUrl,
      temporalAddress: stack.temporalAddress,
      platformId: partner.platformId,
      publicKeyPem: String(publicKey.body.publicKeyPem),
      customers,
      issuer,
      initialFunding: INITIAL_FUNDING,
      outcomes,
      received: receiver.received,
      delivered,
      apiBalances: async () => {
        const list = await client.call('GET', '/customers/internal-accounts?limit=100');
        return new Map((list.body.data as { id: string; balance: { amount: number } }[]).map((a) => [a.id, BigInt(a.balance.amount)]));
      },
      kills,
      components: stack.components,
      killsEach,
      unplannedExits: stack.unplannedExits,
      drainSeconds: DRAIN_SECONDS,
      evidenceDir: join(stack.dir, 'open-workflows'),
      say,
    });
    let flood: FloodResult | undefined;
    if (cluster) {
      checks.push(routedAround(kills, stack.apiProcesses));
      // After the verdict: the flood's undeliverable events would keep its drain waiting.
      // --flood-customers 0 leaves the flood check out.
      if (Number(args['flood-customers']) > 0) {
        flood = await webhookFlood(stack, client, { customers: Number(args['flood-customers']), samples: Number(args['flood-samples']), say });
        checks.push(flood.check);
      }
    }
    if (toxiproxy) checks.push(faultsCheck(faults));
    report(checks, kills, faults, outcomes.length);
    writeFileSync(
      join(stack.dir, 'result.json'),
      JSON.stringify({ seed, minutes, topology: args.topology, operations: outcomes.length, kills, faults, checks, flood }, null, 2),
    );
    const failed = checks.filter((c) => !c.ok).length;
    if (failed > 0) {
      console.log(
        `\nCHAOS FAILED: ${failed} check(s). Replay with: npm run chaos -- --seed ${seed} --minutes ${minutes} --kills-each ${killsEach}${cluster ? ' --topology cluster' : ''}${toxiproxy ? ' --faults' : ''}`,
      );
      say(`logs of every process: ${stack.dir}`);
      return 1;
    }
    console.log(`\nchaos passed (seed ${seed}, ${minutes} min, ${outcomes.length} operations, ${kills.length} kills, ${faults.length} network faults)`);
    return 0;
  } finally {
    await stack.stop();
    await toxiproxy?.stop();
    await receiver.stop();
  }
}

function report(checks: Check[], kills: Kill[], faults: Fault[], operations: number): void {
  const rows = checks.map((c) => [c.ok ? 'ok' : 'FAIL', c.name, c.detail]);
  const width = Math.max(...rows.map((r) => r[1]!.length));
  console.log(`\nCrash campaign${cluster ? ' on the production topology' : ''}: seed ${seed}, ${minutes} min, ${operations} operations`);
  // Ready: /ready answers 200. Answering and delivering: read from the API's and the worker's metrics.
  // Cluster: also the 2xx answers the other API replica gave while a killed one was down.
  console.log(
    `\n  kill  at(s)  component  down(ms)  component back(ms)  service ready(ms)  answering(ms)  delivering(ms)${cluster ? '  others answered' : ''}`,
  );
  const ms = (value: number | null | undefined, width: number) => String(value ?? '—').padStart(width);
  kills.forEach((k, i) =>
    console.log(
      `  ${String(i + 1).padStart(4)}  ${String(k.at).padStart(5)}  ${k.component.padEnd(9)}  ${ms(k.downMs, 8)}  ${ms(k.componentBackMs, 18)}  ${ms(k.serviceReadyMs, 17)}  ${ms(k.answeringMs, 13)}  ${ms(k.deliveringMs, 14)}${cluster ? `  ${ms(k.othersAnswered, 15)}` : ''}`,
    ),
  );
  if (faults.length > 0) {
    // The same readings, counted from the fault's end; "links back": each process it touched works its link again.
    console.log('\n  network fault      at(s)  lasted(ms)  links back(ms)  service ready(ms)  answering(ms)  delivering(ms)  answers/webhooks meanwhile');
    for (const f of faults)
      console.log(
        `  ${f.fault.padEnd(17)}  ${String(f.at).padStart(5)}  ${ms(f.downMs, 10)}  ${ms(f.componentBackMs, 14)}  ${ms(f.serviceReadyMs, 17)}  ${ms(f.answeringMs, 13)}  ${ms(f.deliveringMs, 14)}  ${f.answeredDuring ?? '?'}/${f.deliveredDuring ?? '?'}`,
      );
  }
  console.log('');
  for (const [status, name, detail] of rows) console.log(`  ${status!.padEnd(4)}  ${name!.padEnd(width)}  ${detail}`);
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    console.log(`\nCHAOS FAILED: the campaign itself broke. Replay with: npm run chaos -- --seed ${seed} --minutes ${minutes}`);
    process.exit(1);
  },
);

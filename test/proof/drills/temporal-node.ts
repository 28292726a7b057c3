import { Client, Connection } from '@temporalio/client';
import { parseArgs } from 'node:util';
import { Client as PgClient } from 'pg';
import { ownersLine, TemporalAdmin, type ShardOwners } from '../../../src/dev/temporal-ring';
import { WebhookReceiver } from '../../support/receiver';
import { ClusterStack } from '../cluster-stack';
import { PartnerClient, PayoutLoad, preparePayer } from '../partner-load';
import { ledgerFindings } from '../ledger-findings';

/**
 * The Temporal server node drill (`npm run drill -- temporal-node`): the production topology with its Temporal server
 * as two nodes in one membership ring behind HAProxy (test/proof/cluster-stack.ts), payouts running as a partner
 * sends them, then `kill -9` of node 1. It measures how long partners go unanswered (the longest gap between two
 * successful answers, and the time until a quote and an execute sent right after the kill both succeed), watches the
 * history shards move to the survivor, checks every payout COMPLETED exactly once (one workflow run, one debit, the
 * ledger audit clean), then starts node 1 again and times the ring's rebalance (shards on both nodes). The CI short
 * form is test/e2e/temporal-node.test.ts; docs/production.md "Losing a Temporal server node" has a measured run.
 */

export interface TemporalNodeDrillOptions {
  name: string;
  payouts: number;
  inFlight: number;
  say?: (message: string) => void;
}

export interface TemporalNodeDrillResult {
  payouts: number;
  inFlight: number;
  /** Shard owners (history host → shards) before the kill, once the survivor holds them all, after the rebalance. */
  ownersBefore: ShardOwners;
  ownersAfterKill: ShardOwners;
  ownersAfterRestart: ShardOwners;
  /** The history hosts of node 1 (killed) and node 2 (survivor). */
  killedHost: string;
  survivorHost: string;
  /** What the survivor's ring said once the killed node left it, and after the restart. */
  survivorRingAfterKill: string[];
  survivorRingAfterRestart: string[];
  /** From the kill: node 1 gone from the survivor's history ring; every shard owned by the survivor. */
  leftRingMs: number;
  shardsMovedMs: number;
  /** From the kill: a quote then an execute sent right after it both answered 2xx (the partner's retries included). */
  quoteAndExecuteMs: number;
  /** The longest time without a successful answer to the load, from the kill on. */
  longestGapMs: number;
  /** Of the requests in flight at the kill, when the last one was answered (retries included), from the kill. */
  lastInFlightAnsweredMs: number;
  /** The longest a request sent after the kill (until the probe succeeded) waited for its answer, and which. */
  slowestAfterKillMs: number;
  slowestAfterKill: string;
  /** The longest a request answered before the kill waited: the machine's baseline under this load. */
  slowestBeforeKillMs: number;
  /** From node 1's restart command: its process answers and sees 2 history hosts; shards on both nodes. */
  restartedInRingMs: number;
  rebalancedMs: number;
  completedMs: number;
  requests: number;
  retried: number;
  retries: Record<string, number>;
  failed: string[];
  statuses: Record<string, number>;
  /** Transactions executed more than once, with more than one workflow run, or with other than one debit of the payer. */
  doubled: string[];
  auditFindings: unknown[];
  unplannedExits: Record<string, number>;
  /** The most client connections PostgreSQL held at once (sampled every 2 s), by database, and its limit. */
  peakConnections: { total: number; byDatabase: Record<string, number>; max: number };
}

/** Samples PostgreSQL's client connections every 2 s until stopped: two Temporal nodes and four service processes share it. */
function sampleConnections(databaseUrl: string): { stop: () => Promise<TemporalNodeDrillResult['peakConnections']> } {
  const peak = { total: 0, byDatabase: {} as Record<string, number>, max: 0 };
  let running = true;
  const pg = new PgClient({ connectionString: databaseUrl });
  const done = (async () => {
    await pg.connect();
    peak.max = Number((await pg.query<{ max_connections: string }>('show max_connections')).rows[0]!.max_connections);
    while (running) {
      const { rows } = await pg
        .query<{ datname: string; n: string }>(
          `select coalesce(datname, '-') as datname, count(*) as n from pg_stat_activity where backend_type = 'client backend' group by 1`,
        )
        .catch(() => ({ rows: [] as { datname: string; n: string }[] }));
      const total = rows.reduce((sum, row) => sum + Number(row.n), 0);
      if (total > peak.total) Object.assign(peak, { total, byDatabase: Object.fromEntries(rows.map((row) => [row.datname, Number(row.n)])) });
      await sleep(2_000);
    }
    await pg.end();
  })().catch(() => undefined);
  return {
    stop: async () => {
      running = false;
      await done;
      return peak;
    },
  };
}

/** Records each request's first send and final answer (after the partner's retries), and whether it succeeded (2xx). */
class TimedPartner extends PartnerClient {
  readonly calls: { sentAt: number; answeredAt: number; ok: boolean; what: string }[] = [];

  override async call(method: string, path: string, body?: unknown) {
    const sentAt = Date.now();
    const answer = await super.call(method, path, body);
    const what = `${method} ${path.replace(/\/[^/]*[0-9][^/]*/g, '/:id')}`;
    this.calls.push({ sentAt, answeredAt: Date.now(), ok: answer.status >= 200 && answer.status < 300, what });
    return answer;
  }
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Polls `read` every 250 ms until `accept`; returns the value and when it was read. Throws past `timeoutMs`. */
async function until<T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number): Promise<{ value: T; at: number }> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    try {
      last = await read();
      if (accept(last)) return { value: last, at: Date.now() };
    } catch {
      // a node that does not answer yet
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s (last: ${JSON.stringify(last)})`);
    await sleep(250);
  }
}

export async function runTemporalNodeDrill(options: TemporalNodeDrillOptions): Promise<TemporalNodeDrillResult> {
  const say = options.say ?? ((m: string) => process.stderr.write(`[drill] ${m}\n`));
  const receiver = await new WebhookReceiver().start();
  const stack = await ClusterStack.start({ name: options.name, say, temporalNodes: 2 });
  const admins: TemporalAdmin[] = [];
  try {
    const [killedHost, survivorHost] = stack.temporalHistoryHosts as [string, string];
    const survivor = new TemporalAdmin(stack.temporalNodeAddresses[1]!);
    const throughLb = new TemporalAdmin(stack.temporalAddress);
    admins.push(survivor, throughLb);
    const spread = (o: ShardOwners) => o.unowned.length === 0 && (o.byHost[killedHost]?.length ?? 0) > 0 && (o.byHost[survivorHost]?.length ?? 0) > 0;
    // Each node holds some shards before anything happens (a fresh ring settles within seconds).
    const { value: ownersBefore } = await until('shards on both nodes', () => throughLb.shardOwners(), spread, 120_000);
    say(`shards before: ${ownersLine(ownersBefore)}`);

    const connections = sampleConnections(stack.databaseUrl);
    const partnerId = await stack.sandboxPartner('temporal-node-drill', receiver.url);
    const partner = new TimedPartner(stack.baseUrl, partnerId.authorization);
    const payer = await preparePayer(partner, 'temporal-node-drill', 100 * (1_000 + options.payouts) * options.payouts);
    const load = new PayoutLoad(partner, payer, options.payouts, options.inFlight);
    await load.executed(Math.ceil(options.payouts / 4));

    say('kill -9 of temporal-1 (node 1)');
    const killedAt = Date.now();
    stack.kill('temporal-1');
    // A partner's quote and execute sent right after the kill (PartnerClient retries 502/503/504 and no answer).
    const probe = (async () => {
      const quote = await partner.call('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: payer.usdAccountId },
        destination: { destinationType: 'ACCOUNT', accountId: payer.bankAccountId },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 500,
      });
      if (quote.status !== 201) throw new Error(`the probe's quote: ${quote.status} ${JSON.stringify(quote.body)}`);
      const executed = await partner.call('POST', `/quotes/${quote.body.id}/execute`);
      if (executed.status !== 200) throw new Error(`the probe's execute: ${executed.status} ${JSON.stringify(executed.body)}`);
      return { at: Date.now(), transactionId: quote.body.transactionId as string };
    })();
    const left = await until(
      "node 1 out of the survivor's ring",
      () => survivor.describeCluster(),
      (view) => !(view.rings.history ?? []).includes(killedHost),
      120_000,
    );
    const moved = await until(
      'every shard on the survivor',
      () => survivor.shardOwners(),
      (o) => o.unowned.length === 0 && Object.keys(o.byHost).join() === survivorHost,
      180_000,
    );
    say(
      `node 1 left the ring ${((left.at - killedAt) / 1000).toFixed(1)} s after the kill; every shard on the survivor after ${((moved.at - killedAt) / 1000).toFixed(1)} s`,
    );
    const answered = await probe;
    say(`a quote and an execute sent right after the kill succeeded ${((answered.at - killedAt) / 1000).toFixed(1)} s after it`);

    await load.sent;
    const loadSentAt = Date.now();
    const { states, elapsedMs: completedMs } = await load.settled(600_000);
    const probeState = (await partner.send('GET', `/transactions/${answered.transactionId}`)).status as string;

    // Node 1 back: it joins the ring, the shards spread over both nodes again.
    say('starting temporal-1 again');
    const restartAt = Date.now();
    await stack.restart('temporal-1');
    const restartedInRingMs = Date.now() - restartAt;
    const rebalanced = await until('shards on both nodes again', () => throughLb.shardOwners(), spread, 180_000);
    const survivorRingAfterRestart = (await survivor.describeCluster()).rings.history ?? [];
    say(
      `node 1 in the ring ${(restartedInRingMs / 1000).toFixed(1)} s after its start; shards on both nodes ${((rebalanced.at - restartAt) / 1000).toFixed(1)} s after it`,
    );

    // Gaps between successful answers ending after the kill, while the load was being sent; and the slowest answer then.
    const duringLoad = partner.calls.filter((c) => c.sentAt >= load.startedAt && c.sentAt <= loadSentAt);
    const times = duringLoad
      .filter((c) => c.ok)
      .map((c) => c.answeredAt)
      .sort((a, b) => a - b);
    let longestGapMs = 0;
    for (let i = 1; i < times.length; i++) if (times[i]! >= killedAt) longestGapMs = Math.max(longestGapMs, times[i]! - times[i - 1]!);
    type Call = (typeof partner.calls)[number];
    const slowestOf = (calls: Call[]) =>
      calls.reduce((worst, c) => (c.answeredAt - c.sentAt > worst.answeredAt - worst.sentAt ? c : worst), { sentAt: 0, answeredAt: 0, ok: true, what: '-' });
    const inFlightAtKill = partner.calls.filter((c) => c.sentAt < killedAt && c.answeredAt >= killedAt);
    const slowest = slowestOf(partner.calls.filter((c) => c.sentAt >= killedAt && c.sentAt <= answered.at));
    const slowestBeforeKill = slowestOf(partner.calls.filter((c) => c.sentAt >= load.startedAt && c.answeredAt < killedAt));

    const peakConnections = await connections.stop();
    const statuses: Record<string, number> = {};
    for (const status of [...states.values(), probeState]) statuses[status] = (statuses[status] ?? 0) + 1;
    const transactions = [...load.transactionIds, answered.transactionId];
    const doubled = await doubledPayouts(stack, transactions, payer.usdAccountId);
    const auditFindings = await ledgerFindings(stack.databaseUrl);
    return {
      payouts: options.payouts,
      inFlight: options.inFlight,
      ownersBefore,
      ownersAfterKill: moved.value,
      ownersAfterRestart: rebalanced.value,
      killedHost,
      survivorHost,
      survivorRingAfterKill: left.value.rings.history ?? [],
      survivorRingAfterRestart,
      leftRingMs: left.at - killedAt,
      shardsMovedMs: moved.at - killedAt,
      quoteAndExecuteMs: answered.at - killedAt,
      longestGapMs,
      lastInFlightAnsweredMs: Math.max(0, ...inFlightAtKill.map((c) => c.answeredAt - killedAt)),
      slowestAfterKillMs: slowest.answeredAt - slowest.sentAt,
      slowestAfterKill: `${slowest.what}, sent ${((slowest.sentAt - killedAt) / 1000).toFixed(1)} s after the kill`,
      slowestBeforeKillMs: slowestBeforeKill.answeredAt - slowestBeforeKill.sentAt,
      restartedInRingMs,
      rebalancedMs: rebalanced.at - restartAt,
      completedMs,
      requests: partner.requests,
      retried: partner.retried,
      retries: partner.retries,
      failed: partner.failed,
      statuses,
      doubled,
      auditFindings,
      unplannedExits: stack.unplannedExits,
      peakConnections,
    };
  } finally {
    for (const admin of admins) admin.close();
    await stack.stop();
    await receiver.stop();
  }
}

/**
 * Transactions paid out more than once: executed twice by the load, run by more than one workflow execution
 * (the workflow id is the transaction id), or with other than exactly one debit posting on the payer's account.
 */
async function doubledPayouts(stack: ClusterStack, transactionIds: string[], payerAccountId: string): Promise<string[]> {
  const doubled = new Set(transactionIds.filter((id, i) => transactionIds.indexOf(id) !== i));
  const connection = await Connection.connect({ address: stack.temporalAddress });
  try {
    const client = new Client({ connection });
    for (const id of new Set(transactionIds)) {
      const { count } = await client.workflow.count(`WorkflowId = '${id}'`);
      if (count !== 1) doubled.add(`${id} (${count} workflow runs)`);
    }
  } finally {
    await connection.close();
  }
  const pg = new PgClient({ connectionString: stack.databaseUrl });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ transaction_id: string; debits: string }>(
      `select e.transaction_id, count(*) filter (where p.amount < 0) as debits
         from journal_entries e join postings p on p.entry_id = e.id
        where e.transaction_id = any($1) and p.account_id = $2
        group by e.transaction_id`,
      [transactionIds, payerAccountId],
    );
    const debits = new Map(rows.map((row) => [row.transaction_id, Number(row.debits)]));
    for (const id of new Set(transactionIds)) if (debits.get(id) !== 1) doubled.add(`${id} (${debits.get(id) ?? 0} debits of the payer)`);
  } finally {
    await pg.end();
  }
  return [...doubled];
}

/** The figures as plain lines, and the checks that failed (none: the drill passed). */
export function report(r: TemporalNodeDrillResult): { lines: string[]; failures: string[] } {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const lines = [
    `temporal node drill: ${r.payouts} payouts (${r.inFlight} in flight) + 1 probe, kill -9 of node 1 (history ${r.killedHost}); survivor node 2 (history ${r.survivorHost})`,
    `shards before the kill:        ${ownersLine(r.ownersBefore)}`,
    `shards after the kill:         ${ownersLine(r.ownersAfterKill)}`,
    `shards after node 1 restarted: ${ownersLine(r.ownersAfterRestart)}`,
    `node 1 out of the survivor's history ring: ${s(r.leftRingMs)} after the kill (ring: ${r.survivorRingAfterKill.join(', ')})`,
    `every shard on the survivor:               ${s(r.shardsMovedMs)} after the kill`,
    `partners answered again: a quote + execute sent at the kill succeeded ${s(r.quoteAndExecuteMs)} after it (target < 30 s); the last request in flight at the kill answered ${s(r.lastInFlightAnsweredMs)} after it; slowest request sent after the kill ${s(r.slowestAfterKillMs)} (${r.slowestAfterKill}; slowest before the kill: ${s(r.slowestBeforeKillMs)}); longest gap between successful answers ${s(r.longestGapMs)}`,
    `node 1 restarted: answering and in the ring ${s(r.restartedInRingMs)} after its start (ring: ${r.survivorRingAfterRestart.join(', ')}); shards on both nodes ${s(r.rebalancedMs)} after its start`,
    `payouts: ${JSON.stringify(r.statuses)}, all final ${s(r.completedMs)} after the load started; doubled: ${r.doubled.length}; ledger audit findings: ${r.auditFindings.length}`,
    `partner: ${r.requests} requests, ${r.retried} sent again (${JSON.stringify(r.retries)}), ${r.failed.length} failed after retries`,
    `PostgreSQL client connections at most ${r.peakConnections.total} of ${r.peakConnections.max} (${JSON.stringify(r.peakConnections.byDatabase)})`,
    `unplanned exits (restarted): ${JSON.stringify(Object.fromEntries(Object.entries(r.unplannedExits).filter(([, n]) => n > 0)))}`,
  ];
  const failures: string[] = [];
  if (r.failed.length) failures.push(`failed after retries: ${r.failed.slice(0, 5).join(' | ')}`);
  if (Object.keys(r.statuses).join() !== 'COMPLETED') failures.push(`not every payout COMPLETED: ${JSON.stringify(r.statuses)}`);
  if (r.doubled.length) failures.push(`doubled: ${r.doubled.slice(0, 5).join(', ')}`);
  if (r.auditFindings.length) failures.push(`ledger audit: ${JSON.stringify(r.auditFindings).slice(0, 500)}`);
  if (r.survivorRingAfterKill.includes(r.killedHost)) failures.push('node 1 still in the ring after the kill');
  if (Object.keys(r.ownersAfterKill.byHost).join() !== r.survivorHost) failures.push('the shards did not all move to the survivor');
  if (!r.survivorRingAfterRestart.includes(r.killedHost)) failures.push('node 1 not back in the ring');
  if (!(r.ownersAfterRestart.byHost[r.killedHost]?.length && r.ownersAfterRestart.byHost[r.survivorHost]?.length)) failures.push('the ring did not rebalance');
  return { lines, failures };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { payouts: { type: 'string', default: '200' }, 'in-flight': { type: 'string', default: '8' } } });
  const result = await runTemporalNodeDrill({ name: 'drill-temporal-node', payouts: Number(values.payouts), inFlight: Number(values['in-flight']) });
  const { lines, failures } = report(result);
  for (const line of lines) console.log(line);
  for (const failure of failures) console.log(`FAILED: ${failure}`);
  console.log(failures.length ? 'temporal node drill: FAILED' : 'temporal node drill: passed');
  process.exit(failures.length ? 1 : 0);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(`temporal node drill failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  });
}

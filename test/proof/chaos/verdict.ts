import { Client, Connection } from '@temporalio/client';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { runLedgerAudit } from '../../../src/contexts/ledger-audit';
import { verifyWebhookSignature } from '../../../src/security/webhook-signature';
import { openOrm } from '../../../src/db/orm';
import type { ReceivedWebhook } from '../../support/receiver';
import { sleep } from '../stack';
import type { Kill } from './killer';
import { expectedStablecoinRefusal, isStablecoin, stablecoinChecks, unsettledStablecoinOperations } from './stablecoin-verdict';
import type { Issuer } from './stablecoin-workload';
import { PAYOUT_SCENARIOS, type Customer, type Outcome } from './workload';

/** One line of the campaign's verdict. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

interface TransactionRow {
  id: string;
  type: string;
  status: string;
  failure_reason: string | null;
  quote_id: string | null;
  received_amount: string;
  sent_amount: string | null;
  account_id: string | null;
  refund_status: string | null;
}

export interface VerdictInput {
  databaseUrl: string;
  temporalAddress: string;
  platformId: string;
  publicKeyPem: string;
  customers: Customer[];
  issuer: Issuer;
  initialFunding: number;
  outcomes: Outcome[];
  received: readonly ReceivedWebhook[];
  /** Event ids the receiver accepted (answered 2xx) at least once. */
  delivered: ReadonlySet<string>;
  /** Balances as the API reports them, by internal account id. */
  apiBalances: () => Promise<Map<string, bigint>>;
  kills: Kill[];
  /** What the campaign kills: each must have been killed `killsEach` times. */
  components: readonly string[];
  killsEach: number;
  unplannedExits: Record<string, number>;
  drainSeconds: number;
  /** Where the describe and history of each workflow left open without a reason, or failed, are written. */
  evidenceDir?: string;
  say: (m: string) => void;
}

const TERMINAL = new Set(['COMPLETED', 'FAILED', 'REFUNDED', 'EXPIRED', 'CANCELLED']);
const executed = (o: Outcome) => o.execute !== undefined && o.execute.status >= 200 && o.execute.status < 300;

async function transactions(pg: PgClient, platformId: string): Promise<TransactionRow[]> {
  const { rows } = await pg.query<TransactionRow>(
    `select id, type, status, failure_reason, quote_id, received_amount::text, sent_amount::text,
            destination->>'accountId' as account_id, refund->>'status' as refund_status
       from transactions where platform_id = $1`,
    [platformId],
  );
  return rows;
}

async function webhookEventIds(pg: PgClient, platformId: string): Promise<Map<string, string>> {
  const { rows } = await pg.query<{ id: string; type: string }>('select id, type from webhook_events where platform_id = $1', [platformId]);
  return new Map(rows.map((r) => [r.id, r.type]));
}

/** Open workflows nothing explains: anything RUNNING except a quote still awaiting its expiry. */
async function unexplainedOpenWorkflows(pg: PgClient, client: Client): Promise<{ type: string; id: string }[]> {
  const open: { type: string; id: string }[] = [];
  for await (const wf of client.workflow.list({ query: 'ExecutionStatus = "Running"' })) open.push({ type: wf.type, id: wf.workflowId });
  // A pending quote's payment workflow (id = its transaction id; older runs: a quote workflow, id = quote id) waits for it.
  const pending = (await pg.query<{ id: string; transaction_id: string }>(`select id, transaction_id from quotes where status = 'PENDING'`)).rows;
  const waiting = new Set([...pending.map((r) => r.id), ...pending.map((r) => r.transaction_id)]);
  return open.filter((w) => !((w.type === 'quote' || w.type === 'payment') && waiting.has(w.id)));
}

/**
 * Waits until the work has settled: every executed payment and every mint and burn in a final
 * state, every recorded webhook event accepted by the receiver at least once, and no workflow
 * open without a reason (or the drain deadline passes).
 */
async function drain(pg: PgClient, client: Client, input: VerdictInput): Promise<void> {
  const deadline = Date.now() + input.drainSeconds * 1000;
  const mustSettle = new Set(input.outcomes.filter(executed).map((o) => o.transactionId!));
  for (;;) {
    const open = (await transactions(pg, input.platformId)).filter(
      (t) => mustSettle.has(t.id) && (!TERMINAL.has(t.status) || (t.status === 'FAILED' && t.refund_status === 'PENDING')),
    );
    const undelivered = [...(await webhookEventIds(pg, input.platformId)).keys()].filter((id) => !input.delivered.has(id));
    const workflows = await unexplainedOpenWorkflows(pg, client);
    const operations = await unsettledStablecoinOperations(pg, input.platformId);
    if (open.length === 0 && undelivered.length === 0 && workflows.length === 0 && operations === 0) return;
    if (Date.now() > deadline) {
      input.say(
        `drain deadline passed: ${open.length} payments and ${operations} stablecoin operations unsettled, ${undelivered.length} webhook events undelivered, ${workflows.length} workflows open`,
      );
      return;
    }
    await sleep(2_000);
  }
}

export async function judge(input: VerdictInput): Promise<Check[]> {
  const pg = new PgClient({ connectionString: input.databaseUrl });
  await pg.connect();
  const connection = await Connection.connect({ address: input.temporalAddress });
  try {
    const client = new Client({ connection, namespace: 'default' });
    input.say(`draining (up to ${input.drainSeconds} s): settling payments, mints and burns, webhook retries and workflows`);
    await drain(pg, client, input);
    const rows = await transactions(pg, input.platformId);
    return [
      answers(input.outcomes),
      oneTransactionPerAnswer(input, rows),
      finalStates(input.outcomes, rows),
      await ledgerAudit(input.databaseUrl),
      await externalFlows(pg, input, rows),
      webhooks(await webhookEventIds(pg, input.platformId), input),
      ...(await stablecoinChecks(pg, client, input.platformId, input.issuer, input.outcomes)),
      await workflows(pg, client, input),
      crashes(input),
    ];
  } finally {
    await connection.close();
    await pg.end();
  }
}

/**
 * The refusals of an execute the workload can meet honestly: a payment larger than what is left,
 * and an expired quote when the execute was sent after the quote's expiry, or rode through an
 * outage that outlasted it (its attempts before the expiry never reached the quote).
 */
function truthfulRefusal(o: Outcome): boolean {
  const code = o.execute?.body.code;
  if (code === 'INSUFFICIENT_FUNDS') return true;
  if (code !== 'QUOTE_EXPIRED') return false;
  const expiresAt = Date.parse(String(o.first.body.expiresAt));
  return o.executeSentAt! >= expiresAt || (o.execute!.failedAttempts > 0 && o.executeAnsweredAt! >= expiresAt);
}

function answers(outcomes: Outcome[]): Check {
  const all = outcomes.flatMap((o) => [o.first, ...(o.execute ? [o.execute] : [])]);
  const unanswered = all.filter((a) => a.status === 0).length;
  const byStatus = new Map<number, number>();
  for (const a of all) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
  const unexpected = outcomes.filter(
    (o) => ((o.first.status >= 400 && !expectedStablecoinRefusal(o)) || (o.execute && o.execute.status >= 400 && !truthfulRefusal(o))) && o.first.status !== 0,
  );
  const retried = all.filter((a) => a.failedAttempts > 0).length;
  const statuses = [...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  const sample = unexpected
    .slice(0, 3)
    .map((o) => JSON.stringify(o.execute?.body ?? o.first.body))
    .join('; ');
  return {
    name: 'every request answered',
    ok: unanswered === 0 && unexpected.length === 0,
    detail: `${all.length} requests (${statuses}); ${retried} rode through an outage; ${unanswered} never answered; ${unexpected.length} unexpected refusals${sample ? `: ${sample}` : ''}`,
  };
}

function oneTransactionPerAnswer(input: VerdictInput, rows: TransactionRow[]): Check {
  const problems: string[] = [];
  const accounted = new Set<string>();
  const incoming = rows.filter((t) => t.type === 'INCOMING');
  // The set-up funding of each customer's USD account: one each.
  for (const c of input.customers) {
    const setup = incoming.filter((t) => t.account_id === c.usd && t.received_amount === String(input.initialFunding));
    if (setup.length !== 1) problems.push(`set-up funding of ${c.usd}: ${setup.length} transactions`);
    setup.forEach((t) => accounted.add(t.id));
  }
  let answered = 0;
  for (const o of input.outcomes) {
    // Mints and burns record operations, not transactions: judged by their own checks.
    if (o.first.status < 200 || o.first.status >= 300 || isStablecoin(o)) continue;
    answered++;
    if (o.operation.kind === 'fund') {
      const { accountId, amount } = o.operation;
      const matches = incoming.filter((t) => t.account_id === accountId && t.received_amount === String(amount));
      if (matches.length !== 1) problems.push(`funding of ${amount} to ${accountId}: ${matches.length} transactions`);
      matches.forEach((t) => accounted.add(t.id));
    } else {
      const matches = rows.filter((t) => t.id === o.transactionId || t.quote_id === o.first.body.id);
      if (matches.length !== 1) problems.push(`quote ${String(o.first.body.id)}: ${matches.length} transactions`);
      matches.forEach((t) => accounted.add(t.id));
    }
  }
  const strays = rows.filter((t) => !accounted.has(t.id));
  if (strays.length > 0)
    problems.push(
      `${strays.length} transactions no 2xx answer accounts for: ${strays
        .slice(0, 3)
        .map((t) => t.id)
        .join(', ')}`,
    );
  return {
    name: 'one transaction per 2xx answer',
    ok: problems.length === 0,
    detail: problems.length
      ? problems.slice(0, 5).join('; ')
      : `${answered} answers ↔ ${rows.length - input.customers.length} transactions (+${input.customers.length} set-up fundings)`,
  };
}

/** Each operation's transaction in the state its scenario prescribes. */
function expectedState(o: Outcome): { status: string; failureReason?: string } | 'NOT_EXECUTED' {
  if (o.operation.kind !== 'payout') return o.operation.kind === 'fund' || executed(o) ? { status: 'COMPLETED' } : 'NOT_EXECUTED';
  if (!executed(o)) return 'NOT_EXECUTED';
  const scenario = PAYOUT_SCENARIOS[o.operation.suffix];
  return { status: scenario.status, ...(scenario.failureReason ? { failureReason: scenario.failureReason } : {}) };
}

function finalStates(outcomes: Outcome[], rows: TransactionRow[]): Check {
  const byId = new Map(rows.map((t) => [t.id, t]));
  const wrong: string[] = [];
  let checked = 0;
  for (const o of outcomes) {
    if (o.operation.kind === 'fund' || !o.transactionId) continue;
    const t = byId.get(o.transactionId);
    const expected = expectedState(o);
    checked++;
    if (!t) {
      wrong.push(`${o.transactionId}: missing`);
    } else if (expected === 'NOT_EXECUTED') {
      if (t.status === 'COMPLETED' || t.status === 'PROCESSING') wrong.push(`${t.id} (execution refused): ${t.status}`);
    } else if (
      t.status !== expected.status ||
      (expected.failureReason && t.failure_reason !== expected.failureReason) ||
      (t.status === 'FAILED' && t.refund_status !== 'COMPLETED')
    ) {
      wrong.push(
        `${t.id} (${o.operation.kind}${o.operation.kind === 'payout' ? ` ${o.operation.suffix}` : ''}): ${t.status}/${t.failure_reason ?? '-'}/refund ${t.refund_status ?? '-'}, expected ${expected.status}/${expected.failureReason ?? '-'}`,
      );
    }
  }
  const funds = outcomes.filter((o) => o.operation.kind === 'fund' && o.first.status === 200).length;
  return {
    name: 'no payment lost, duplicated or stuck',
    ok: wrong.length === 0,
    detail: wrong.length
      ? `${wrong.length} wrong: ${wrong.slice(0, 4).join('; ')}`
      : `${checked} quotes and ${funds} fundings each in their scenario's final state`,
  };
}

async function ledgerAudit(databaseUrl: string): Promise<Check> {
  const orm = await openOrm(databaseUrl, { poolMax: 2 });
  try {
    const audit = await runLedgerAudit(orm.em.fork());
    return {
      name: 'ledger audit',
      ok: audit.findings.length === 0,
      detail: audit.findings.length ? JSON.stringify(audit.findings.slice(0, 3)) : `${audit.entries} entries over ${audit.accounts} accounts, all balanced`,
    };
  } finally {
    await orm.close();
  }
}

/**
 * What the partner sent in and what left through the rails, tallied from its own answers and
 * the transactions' final states, against the balances the API reports and the sandbox
 * funding source's ledger account.
 */
async function externalFlows(pg: PgClient, input: VerdictInput, rows: TransactionRow[]): Promise<Check> {
  const byId = new Map(rows.map((t) => [t.id, t]));
  const expected = new Map<string, bigint>();
  const add = (account: string, amount: bigint) => expected.set(account, (expected.get(account) ?? 0n) + amount);
  let fundedIn = 0n;
  for (const c of input.customers) {
    add(c.usd, BigInt(input.initialFunding));
    add(c.eur, 0n);
    fundedIn += BigInt(input.initialFunding);
  }
  for (const o of input.outcomes) {
    // Mints and burns move the issuer's reserve and supply, no customer's balance.
    if (o.operation.kind === 'mint' || o.operation.kind === 'burn') continue;
    if (o.operation.kind === 'fund') {
      if (o.first.status === 200) {
        add(o.operation.accountId, BigInt(o.operation.amount));
        fundedIn += BigInt(o.operation.amount);
      }
      continue;
    }
    const t = o.transactionId ? byId.get(o.transactionId) : undefined;
    if (!t || !executed(o)) continue;
    // A failed payment refunded in full moved nothing in the end.
    if (t.status === 'FAILED' && t.refund_status === 'COMPLETED') continue;
    add(o.operation.customer.usd, -BigInt(t.sent_amount ?? 0));
    if (o.operation.kind === 'convert' && t.status === 'COMPLETED') add(o.operation.customer.eur, BigInt(t.received_amount));
  }
  const actual = await input.apiBalances();
  const off = [...expected]
    .filter(([id, amount]) => actual.get(id) !== amount)
    .map(([id, amount]) => `${id}: API ${String(actual.get(id))}, expected ${amount}`);
  // The funding source may go negative, so it keeps no running balance: its balance is its postings.
  const { rows: source } = await pg.query<{ balance: string }>(
    `select coalesce(sum(p.amount), 0)::text as balance from postings p join ledger_accounts a on a.id = p.account_id where a.platform_id = $1 and a.kind = 'SANDBOX_FUNDING_SOURCE' and a.currency = 'USD'`,
    [input.platformId],
  );
  const sourceBalance = BigInt(source[0]!.balance);
  if (sourceBalance !== -fundedIn) off.push(`sandbox funding source ${sourceBalance}, expected ${-fundedIn}`);
  return {
    name: 'balances equal the external flows',
    ok: off.length === 0,
    detail: off.length ? off.slice(0, 4).join('; ') : `${expected.size} accounts as tallied; ${fundedIn} USD cents funded in`,
  };
}

function webhooks(recorded: Map<string, string>, input: VerdictInput): Check {
  const problems: string[] = [];
  const bodies = new Map<string, string>();
  let duplicates = 0;
  let badSignatures = 0;
  for (const hook of input.received) {
    const signature = String(hook.headers['x-svc-signature'] ?? '');
    if (!verifyWebhookSignature(input.publicKeyPem, hook.rawBody, signature)) badSignatures++;
    const earlier = bodies.get(hook.body.id);
    if (earlier !== undefined) {
      duplicates++;
      // A redelivery carries the same event: same id, same content.
      if (earlier !== hook.rawBody) problems.push(`${hook.body.id} redelivered with a different body`);
    } else {
      bodies.set(hook.body.id, hook.rawBody);
    }
    if (!recorded.has(hook.body.id)) problems.push(`${hook.body.id} received but never recorded`);
  }
  const missing = [...recorded.keys()].filter((id) => !input.delivered.has(id));
  if (missing.length)
    problems.push(
      `${missing.length} recorded events never accepted (${missing
        .slice(0, 3)
        .map((id) => `${id} ${recorded.get(id)}`)
        .join(', ')})`,
    );
  if (badSignatures) problems.push(`${badSignatures} deliveries with an invalid signature`);
  return {
    name: 'webhooks at least once, signed',
    ok: problems.length === 0,
    detail: problems.length
      ? problems.slice(0, 4).join('; ')
      : `${recorded.size} events, ${input.received.length} deliveries (${duplicates} repeats), all signatures valid`,
  };
}

/** No workflow failed, timed out or terminated; none left open except quotes awaiting their expiry. */
async function workflows(pg: PgClient, client: Client, input: Pick<VerdictInput, 'evidenceDir' | 'say'>): Promise<Check> {
  const byStatus = new Map<string, number>();
  const bad: string[] = [];
  let open = 0;
  for await (const wf of client.workflow.list()) {
    const status = wf.status.name;
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    if (status === 'RUNNING') open++;
    else if (status !== 'COMPLETED' && status !== 'CONTINUED_AS_NEW') bad.push(`${wf.type} ${wf.workflowId} ${status}`);
  }
  const unexplained = await unexplainedOpenWorkflows(pg, client);
  if (input.evidenceDir) await keepEvidence(client, input.evidenceDir, [...unexplained.map((w) => w.id), ...bad.map((line) => line.split(' ')[1]!)], input.say);
  const counts = [...byStatus].map(([s, n]) => `${s} ${n}`).join(', ');
  return {
    name: 'workflows finished or open for a reason',
    ok: bad.length === 0 && unexplained.length === 0,
    detail: `${counts}; ${open - unexplained.length} open quotes await expiry${bad.length ? `; failed: ${bad.slice(0, 3).join(', ')}` : ''}${
      unexplained.length
        ? `; open without a reason: ${unexplained
            .slice(0, 3)
            .map((w) => `${w.type} ${w.id}`)
            .join(', ')}`
        : ''
    }`,
  };
}

function crashes(input: VerdictInput): Check {
  const counts = new Map<string, number>();
  for (const k of input.kills) counts.set(k.component, (counts.get(k.component) ?? 0) + 1);
  const short = [...counts].filter(([, n]) => n < input.killsEach);
  const exits = Object.entries(input.unplannedExits)
    .filter(([, n]) => n > 0)
    .map(([c, n]) => `${c} ${n}`)
    .join(', ');
  return {
    name: 'every process killed and back',
    ok: short.length === 0 && (input.killsEach === 0 || input.components.every((c) => counts.has(c))),
    detail: `${[...counts].map(([c, n]) => `${c} ×${n}`).join(', ')}; exits on their own (restarted): ${exits || 'none'}`,
  };
}

/**
 * A workflow left open without a reason (or failed) is a finding to read after the run: its description
 * (pending activities and tasks, the run's state) and its whole history, one JSON file each, beside the logs.
 */
async function keepEvidence(client: Client, dir: string, workflowIds: string[], say: (m: string) => void): Promise<void> {
  if (workflowIds.length === 0) return;
  mkdirSync(dir, { recursive: true });
  for (const id of workflowIds.slice(0, 20)) {
    try {
      const handle = client.workflow.getHandle(id);
      const [described, history] = await Promise.all([handle.describe(), handle.fetchHistory()]);
      const file = join(dir, `${id.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
      writeFileSync(
        file,
        JSON.stringify({ described: { ...described, raw: described.raw }, history }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2),
      );
      say(`kept ${id}'s description and history in ${file}`);
    } catch (err) {
      say(`could not keep ${id}'s history: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

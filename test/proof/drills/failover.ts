import { parseArgs } from 'node:util';
import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { Client as PgClient } from 'pg';
import { WebhookReceiver } from '../../support/receiver';
import { ClusterStack } from '../cluster-stack';
import { PartnerClient, PayoutLoad, preparePayer } from '../partner-load';
import { sleep } from '../stack';
import { ledgerFindings } from '../ledger-findings';

/**
 * `npm run drill -- failover [-- --async] [--payouts N] [--in-flight N] [--stall-ms N]`: the production topology
 * (test/proof/cluster-stack.ts) on a PostgreSQL primary with a streaming standby, every client (APIs, workers,
 * the Temporal server) going through the PostgreSQL front. While payouts run, the replication link stalls for
 * `--stall-ms` (the primary's WAL sender is SIGSTOPped: the standby gets nothing more), then the primary is
 * killed (kill -9) and `npm run failover` promotes the standby. Then: every payout the partner got a 2xx for is on
 * the new primary and COMPLETED, no request failed after the partner's retries, the ledger audit is clean, no
 * process was restarted; with `--async`, the payouts acknowledged but missing after the promotion are counted
 * instead. Prints its figures; exits 1 when a check fails.
 */

const root = resolve(__dirname, '../../..');

export interface FailoverDrillOptions {
  /** Names the stack's folders (`.data/<name>`, `.data/postgres-<name>`, `.data/postgres-<name>-standby`). */
  name: string;
  mode: 'sync' | 'async';
  payouts: number;
  inFlight: number;
  /** How long the replication link is stalled before the kill (0: not at all). */
  stallMs: number;
  say?: (line: string) => void;
  /** Called once the failover command has run (the drill no longer starts anything from dist/). */
  onFailedOver?: () => void;
}

export interface FailoverFigures {
  mode: 'sync' | 'async';
  payouts: number;
  /** Payouts (executes) the partner got a 200 for, the probe's included. */
  acknowledged: number;
  acknowledgedBeforeKill: number;
  /** Acknowledged, but not on the new primary. */
  missing: string[];
  /** Acknowledged and on the new primary, by final status (COMPLETED, FAILED, or the last status seen). */
  states: Record<string, number>;
  failed: string[];
  requests: number;
  retries: Record<string, number>;
  ledgerFindings: unknown[];
  /** Exits no kill caused (each restarted), by process. */
  restarts: Record<string, number>;
  failoverSteps: string[];
  /** kill → the failover command done. */
  failoverMs: number;
  /** kill → a payout started at the kill (quote, then execute) answered 200. */
  firstPayoutMs: number;
  /** kill → /ready answered 200 again, by API replica. */
  readyAgainMs: Record<string, number>;
  settledMs: number;
}

export async function runFailoverDrill(options: FailoverDrillOptions): Promise<FailoverFigures> {
  const say = options.say ?? ((line: string) => process.stderr.write(`[drill:failover] ${line}\n`));
  process.env.HAPROXY ??= haproxyPath();
  const receiver = await new WebhookReceiver().start();
  const stack = await ClusterStack.start({ name: options.name, standby: options.mode, say });
  try {
    const sandbox = await stack.sandboxPartner('failover-drill', `${receiver.url}/webhooks`);
    // With asynchronous replication a request may wait on work that was lost: the partner gives up sooner.
    const giveUpAfterMs = options.mode === 'sync' ? 180_000 : 60_000;
    const partner = new PartnerClient(stack.baseUrl, sandbox.authorization, giveUpAfterMs);
    const payer = await preparePayer(partner, 'failover-drill', 100_000_000);
    say(`${options.payouts} payouts, ${options.inFlight} in flight, through HAProxy; the database through the PostgreSQL front (${options.mode} standby)`);
    const load = new PayoutLoad(partner, payer, options.payouts, options.inFlight);
    await load.executed(Math.ceil(options.payouts / 4));

    if (options.stallMs > 0) {
      const walSender = await walSenderPid(stack);
      say(`replication stalled: WAL sender pid ${walSender} stopped for ${options.stallMs} ms`);
      process.kill(walSender, 'SIGSTOP');
      await sleep(options.stallMs);
    }
    const acknowledgedBeforeKill = load.transactionIds.length;
    const killedAt = Date.now();
    stack.kill('postgres');
    say(`primary killed (kill -9) with ${acknowledgedBeforeKill} payouts acknowledged; running npm run failover`);

    const readyAgain = Object.fromEntries(stack.apiProcesses.map((name) => [name, readyAgainAfter(`${stack.replicaUrl(name)}/ready`, killedAt)]));
    const probePartner = new PartnerClient(stack.baseUrl, sandbox.authorization, giveUpAfterMs);
    const probe = probePayout(probePartner, payer).then((id) => ({ id, ms: Date.now() - killedAt }));
    const failover = await runFailoverCommand(stack.dir);
    const failoverMs = Date.now() - killedAt;
    options.onFailedOver?.();
    for (const line of failover) say(line);

    const [{ id: probeId, ms: firstPayoutMs }] = await Promise.all([probe, load.sent]);
    const readyAgainMs: Record<string, number> = {};
    for (const [name, back] of Object.entries(readyAgain)) readyAgainMs[name] = await back;
    const acknowledged = [...load.transactionIds, ...(probeId ? [probeId] : [])];

    const onNewPrimary = await existing(stack.databaseUrl, acknowledged);
    const missing = acknowledged.filter((id) => !onNewPrimary.has(id));
    const states = await finalStates(
      partner,
      acknowledged.filter((id) => onNewPrimary.has(id)),
      options.mode === 'sync' ? 300_000 : 60_000,
    );
    const settledMs = Date.now() - load.startedAt;
    const auditFindings = await ledgerFindings(stack.databaseUrl);
    const retries = { ...partner.retries };
    for (const [cause, n] of Object.entries(probePartner.retries)) retries[cause] = (retries[cause] ?? 0) + n;
    return {
      mode: options.mode,
      payouts: options.payouts,
      acknowledged: acknowledged.length,
      acknowledgedBeforeKill,
      missing,
      states: countBy(states.values()),
      failed: [...partner.failed, ...probePartner.failed],
      requests: partner.requests + probePartner.requests,
      retries,
      ledgerFindings: auditFindings,
      restarts: { ...stack.unplannedExits },
      failoverSteps: failover,
      failoverMs,
      firstPayoutMs,
      readyAgainMs,
      settledMs,
    };
  } finally {
    await stack.stop();
    await receiver.stop();
  }
}

/**
 * What the drill requires, as plain lines: empty when every check passed. With `async`, what was acknowledged and
 * then lost is what the drill counts (figureLines), not a failure; the rest is required of both.
 */
export function failedChecks(f: FailoverFigures): string[] {
  const problems: string[] = [];
  if (f.mode === 'sync') {
    if (f.missing.length > 0) problems.push(`${f.missing.length} acknowledged payouts missing on the new primary: ${f.missing.join(', ')}`);
    if ((f.states.COMPLETED ?? 0) !== f.acknowledged) problems.push(`not every payout COMPLETED: ${JSON.stringify(f.states)}`);
    if (f.failed.length > 0) problems.push(`requests failed after retries: ${f.failed.join('; ')}`);
  }
  if (f.ledgerFindings.length > 0) problems.push(`ledger audit: ${JSON.stringify(f.ledgerFindings).slice(0, 1_000)}`);
  const restarted = Object.entries(f.restarts).filter(([, n]) => n > 0);
  if (restarted.length > 0) problems.push(`processes restarted: ${JSON.stringify(Object.fromEntries(restarted))}`);
  if (f.firstPayoutMs < 0) problems.push('no payout succeeded after the kill');
  return problems;
}

export function figureLines(f: FailoverFigures): string[] {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const stuck = Object.entries(f.states)
    .filter(([status]) => status !== 'COMPLETED' && status !== 'FAILED')
    .reduce((n, [, count]) => n + count, 0);
  const quotesLost = f.failed.filter((line) => line.includes('QUOTE_NOT_FOUND')).length;
  return [
    `mode: ${f.mode} replication; ${f.payouts} payouts + 1 probe; ${f.acknowledgedBeforeKill} acknowledged before the kill, ${f.acknowledged} in all`,
    `acknowledged to the partner, then lost with the old primary: ${f.missing.length} executed payouts missing on the new primary, ` +
      `${quotesLost} quotes missing (their execute answered 404 QUOTE_NOT_FOUND), ${stuck} payouts stuck short of a final status (their workflow's progress lost with Temporal's own writes)`,
    `final states of the acknowledged payouts on the new primary: ${JSON.stringify(f.states)}; all settled ${s(f.settledMs)} after the load started`,
    `requests: ${f.requests}, sent again: ${Object.values(f.retries).reduce((a, b) => a + b, 0)} (${JSON.stringify(f.retries)}), failed after retries: ${f.failed.length} ${JSON.stringify(countBy(f.failed.map(answerOf)))}`,
    `ledger audit findings: ${f.ledgerFindings.length}`,
    `restarts (exits no kill caused): ${JSON.stringify(Object.fromEntries(Object.entries(f.restarts).filter(([, n]) => n > 0)))} (none: {})`,
    `kill → failover done: ${s(f.failoverMs)}`,
    `kill → first payout answered 200 (quote + execute started at the kill): ${s(f.firstPayoutMs)}`,
    `kill → /ready 200 again: ${Object.entries(f.readyAgainMs)
      .map(([name, ms]) => `${name} ${s(ms)}`)
      .join(', ')}`,
  ];
}

function haproxyPath(): string {
  const found = spawnSync('bash', [join(root, 'bin/lib/haproxy.sh')], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error(`no HAProxy: ${found.stderr}`);
  return found.stdout.trim();
}

/** The pid of the primary's WAL sender (the process that streams to the standby). */
async function walSenderPid(stack: ClusterStack): Promise<number> {
  const pg = new PgClient({ connectionString: stack.primaryPostgres.url('postgres') });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ pid: number }>('select pid from pg_stat_replication');
    if (!rows[0]) throw new Error('the primary has no WAL sender: is the standby streaming?');
    return rows[0].pid;
  } finally {
    await pg.end();
  }
}

/**
 * The failover command (`npm run failover -- <dir>`), compiled as the stack's processes are (`node
 * dist/src/cli/failover.js <dir>`: tsx's start takes seconds on a loaded machine); resolves with its lines.
 */
function runFailoverCommand(dir: string): Promise<string[]> {
  return new Promise((done, fail) => {
    let out = '';
    const proc = spawn(process.execPath, [join(root, 'dist/src/cli/failover.js'), dir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('exit', (code) => {
      const lines = out.split('\n').filter(Boolean);
      if (code === 0) done(lines);
      else fail(new Error(`npm run failover exited ${code}:\n${lines.join('\n')}`));
    });
  });
}

/** Polls `url` from the kill: the time of its first 200 after it first failed (0 if it never failed within 10 s). */
async function readyAgainAfter(url: string, killedAt: number): Promise<number> {
  let failedOnce = false;
  for (;;) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(3_000) }).then(
      (res) => res.ok,
      () => false,
    );
    if (!ok) failedOnce = true;
    if (ok && (failedOnce || Date.now() - killedAt > 10_000)) return failedOnce ? Date.now() - killedAt : 0;
    if (Date.now() - killedAt > 300_000) return -1;
    await sleep(100);
  }
}

/** One payout (an amount of its own, 999) sent from the kill on, retried as a partner does; its transaction id once executed. */
async function probePayout(partner: PartnerClient, payer: { usdAccountId: string; bankAccountId: string }): Promise<string | undefined> {
  const quote = await partner.send('POST', '/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: payer.usdAccountId },
    destination: { destinationType: 'ACCOUNT', accountId: payer.bankAccountId },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 999,
  });
  if (!quote.id) return undefined;
  await partner.send('POST', `/quotes/${quote.id}/execute`);
  return partner.failed.length === 0 ? (quote.transactionId as string) : undefined;
}

async function existing(databaseUrl: string, ids: string[]): Promise<Set<string>> {
  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ id: string }>('select id from transactions where id = any($1)', [ids]);
    return new Set(rows.map((r) => r.id));
  } finally {
    await pg.end();
  }
}

/** Each payment's status once final (COMPLETED or FAILED), or its last status when `timeoutMs` ran out. */
async function finalStates(partner: PartnerClient, ids: string[], timeoutMs: number): Promise<Map<string, string>> {
  const states = new Map<string, string>();
  const final = (status: string | undefined) => status === 'COMPLETED' || status === 'FAILED';
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const id of ids) if (!final(states.get(id))) states.set(id, String((await partner.send('GET', `/transactions/${id}`)).status));
    if ([...states.values()].every(final) || Date.now() > deadline) return states;
    await sleep(500);
  }
}

/** A failed request's final answer, e.g. `POST /quotes/{id}/execute: 404 QUOTE_NOT_FOUND`. */
function answerOf(failedLine: string): string {
  const [, method, path, status] = /^(\S+) (\S+): (\d+)/.exec(failedLine) ?? [];
  const code = /"code":"([A-Z_]+)"/.exec(failedLine)?.[1] ?? '';
  return `${method} ${path?.replace(/[A-Za-z]+:[0-9a-f-]{36}/g, '{id}')}: ${status} ${code}`.trim();
}

function countBy(values: Iterable<string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

async function main(): Promise<void> {
  // bin/drill brings the compiled build up to date and finds HAProxy first.
  const { values } = parseArgs({
    options: {
      async: { type: 'boolean', default: false },
      payouts: { type: 'string', default: '60' },
      'in-flight': { type: 'string', default: '8' },
      'stall-ms': { type: 'string', default: '1000' },
    },
  });
  const mode = values.async ? 'async' : 'sync';
  const figures = await runFailoverDrill({
    name: `drill-failover-${mode}`,
    mode,
    payouts: Number(values.payouts),
    inFlight: Number(values['in-flight']),
    stallMs: Number(values['stall-ms']),
  });
  for (const line of figureLines(figures)) process.stdout.write(`${line}\n`);
  const problems = failedChecks(figures);
  for (const problem of problems) process.stdout.write(`FAILED: ${problem}\n`);
  process.stdout.write(problems.length === 0 ? 'drill:failover passed\n' : 'drill:failover failed\n');
  process.exit(problems.length === 0 ? 0 : 1);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`[drill:failover] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}

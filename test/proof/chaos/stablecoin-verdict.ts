import type { Client } from '@temporalio/client';
import type { Client as PgClient } from 'pg';
import { derivedId } from '../../../src/domain/ids';
import { reserveAccountId, supplyAccountId } from '../../../src/contexts/stablecoins/services/stablecoin-ledger';
import { BusinessStatusKey } from '../../../src/temporal/search-attributes';
import type { Check } from './verdict';
import { STABLECOIN_SCENARIOS, type Issuer, type StablecoinOperation, type StablecoinOutcome } from './stablecoin-workload';
import type { Outcome } from './workload';

/**
 * The verdict on the issuer's mints and burns: one operation row per answer, each in the final
 * state its scenario prescribes with one closed workflow, one journal entry per completed
 * operation and none otherwise, reserve and supply equal to what completed (the reserve never
 * below zero), and every INSUFFICIENT_FUNDS burn really beyond what was available.
 */

interface OperationRow {
  id: string;
  operation_type: 'MINT' | 'BURN';
  status: string;
  amount: string;
  fiat_amount: string;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A mint or burn the partner sent, with what it finally got. */
type Sent = Outcome & { operation: StablecoinOperation; stablecoin: StablecoinOutcome };

export const isStablecoin = (o: Outcome): o is Sent => o.operation.kind === 'mint' || o.operation.kind === 'burn';

const FINAL = ['COMPLETED', 'FAILED', 'EXPIRED'];
const ENTRY_KEY_PREFIX = 'stablecoin-operation:';
const code = (o: Outcome) => o.first.body.code;

/** The refusals a mint or burn can honestly meet: its scenario's provider refusal, or a burn beyond the supply (judged in `burnRefusals`). */
export function expectedStablecoinRefusal(o: Outcome): boolean {
  if (!isStablecoin(o)) return false;
  if (o.operation.kind === 'burn' && code(o) === 'INSUFFICIENT_FUNDS') return true;
  return o.operation.scenario === 'refused' && code(o) === 'STABLECOIN_PROVIDER_ERROR';
}

/** The operation's id follows from its Idempotency-Key: a retry can only ever name this one. */
const operationId = (platformId: string, issuer: Issuer, o: Sent) =>
  derivedId('StablecoinOperation', platformId, issuer.stablecoinId, o.operation.kind.toUpperCase(), o.stablecoin.idempotencyKey);

/** Whether the answer says a row was recorded: accepted, or refused by the provider after being recorded (FAILED). */
const recorded = (o: Sent) => o.first.status === 201 || code(o) === 'STABLECOIN_PROVIDER_ERROR';

async function operationRows(pg: PgClient, issuer: Issuer): Promise<OperationRow[]> {
  const { rows } = await pg.query<OperationRow>(
    `select id, operation_type, status, amount, fiat_amount::text, failure_reason, created_at, updated_at from stablecoin_operations where stablecoin_id = $1`,
    [issuer.stablecoinId],
  );
  return rows;
}

/** Operations of the platform not yet final, for the drain. */
export async function unsettledStablecoinOperations(pg: PgClient, platformId: string): Promise<number> {
  const { rows } = await pg.query<{ n: string }>(`select count(*)::text as n from stablecoin_operations where platform_id = $1 and status <> all($2)`, [
    platformId,
    FINAL,
  ]);
  return Number(rows[0]!.n);
}

export async function stablecoinChecks(pg: PgClient, temporal: Client, platformId: string, issuer: Issuer, outcomes: Outcome[]): Promise<Check[]> {
  const sent = outcomes.filter(isStablecoin);
  const rows = await operationRows(pg, issuer);
  return [
    oneOperationPerAnswer(platformId, issuer, sent, rows),
    await finalStates(temporal, platformId, issuer, sent, rows),
    await ledger(pg, platformId, issuer, rows),
    burnRefusals(sent, rows),
  ];
}

function oneOperationPerAnswer(platformId: string, issuer: Issuer, sent: Sent[], rows: OperationRow[]): Check {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const accounted = new Set<string>();
  const problems: string[] = [];
  const tally = { accepted: 0, refusedByProvider: 0, short: 0 };
  for (const o of sent) {
    const id = operationId(platformId, issuer, o);
    const row = byId.get(id);
    const named = o.first.status === 201 ? o.first.body.id : (o.first.body.details as { stablecoinOperationId?: string } | undefined)?.stablecoinOperationId;
    if (o.first.status === 201) tally.accepted++;
    else if (code(o) === 'STABLECOIN_PROVIDER_ERROR') tally.refusedByProvider++;
    else if (code(o) === 'INSUFFICIENT_FUNDS') tally.short++;
    const what = `${o.operation.kind} of ${o.operation.cents} (${o.first.status} ${String(code(o) ?? '')})`;
    if (recorded(o)) {
      if (named !== id) problems.push(`${what} answered ${String(named)}, its key gives ${id}`);
      if (!row) problems.push(`${what}: no operation ${id}`);
      else if (
        row.operation_type !== o.operation.kind.toUpperCase() ||
        row.fiat_amount !== String(o.operation.cents) ||
        row.amount !== String(BigInt(o.operation.cents) * 10_000n)
      ) {
        problems.push(`${what}: ${id} is a ${row.operation_type} of ${row.amount} units (${row.fiat_amount} cents)`);
      }
    } else if (row) {
      problems.push(`${what}: yet operation ${id} exists (${row.status})`);
    }
    // The answer the scenario prescribes (a burn may also find the supply short).
    const expected = STABLECOIN_SCENARIOS[o.operation.scenario].answer;
    if (o.first.status !== expected && !(o.operation.kind === 'burn' && code(o) === 'INSUFFICIENT_FUNDS')) problems.push(`${what}: expected ${expected}`);
    if (row) accounted.add(row.id);
  }
  // A second row for a retried key (or any row no request explains) has an id no answer names.
  const strays = rows.filter((r) => !accounted.has(r.id));
  if (strays.length)
    problems.push(
      `${strays.length} operations no request accounts for: ${strays
        .slice(0, 3)
        .map((r) => `${r.id} ${r.operation_type} ${r.fiat_amount} ${r.status}`)
        .join(', ')}`,
    );
  return {
    name: 'one stablecoin operation per answer',
    ok: problems.length === 0,
    detail: problems.length
      ? problems.slice(0, 4).join('; ')
      : `${sent.length} mints and burns: ${tally.accepted} answered 201, ${tally.refusedByProvider} refused by the provider (FAILED), ${tally.short} INSUFFICIENT_FUNDS (no row) ↔ ${rows.length} operations, none stray`,
  };
}

/** Each operation in its scenario's final state, driven by exactly one workflow run that finished with it; the issuance closed. */
async function finalStates(temporal: Client, platformId: string, issuer: Issuer, sent: Sent[], rows: OperationRow[]): Promise<Check> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const runs = new Map<string, { status: string; businessStatus: string | undefined }[]>();
  for await (const wf of temporal.workflow.list({ query: `WorkflowType = "stablecoinOperation" AND StablecoinId = "${issuer.stablecoinId}"` })) {
    runs.set(wf.workflowId, [...(runs.get(wf.workflowId) ?? []), { status: wf.status.name, businessStatus: wf.typedSearchAttributes.get(BusinessStatusKey) }]);
  }
  const issuance: string[] = [];
  for await (const wf of temporal.workflow.list({ query: `WorkflowType = "stablecoinIssuance" AND WorkflowId = "${issuer.stablecoinId}"` }))
    issuance.push(wf.status.name);
  const wrong: string[] = [];
  const byStatus = new Map<string, number>();
  for (const o of sent) {
    const row = byId.get(operationId(platformId, issuer, o));
    if (!row) continue;
    byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + 1);
    const expected = STABLECOIN_SCENARIOS[o.operation.scenario];
    if (row.status !== expected.status || (row.failure_reason ?? undefined) !== expected.failureReason) {
      wrong.push(
        `${row.id} (${o.operation.kind} ${o.operation.scenario}): ${row.status}/${row.failure_reason ?? '-'}, expected ${expected.status}/${expected.failureReason ?? '-'}`,
      );
    }
    const its = runs.get(row.id) ?? [];
    if (its.length !== 1 || its[0]!.status !== 'COMPLETED' || its[0]!.businessStatus !== row.status) {
      wrong.push(`${row.id}: workflow runs ${its.map((r) => `${r.status}/${r.businessStatus ?? '-'}`).join(', ') || 'none'}, operation ${row.status}`);
    }
  }
  if (issuance.length !== 1 || issuance[0] !== 'COMPLETED') wrong.push(`issuance workflow of ${issuer.stablecoinId}: ${issuance.join(', ') || 'none'}`);
  const counts = [...byStatus].map(([s, n]) => `${s} ${n}`).join(', ');
  return {
    name: 'no stablecoin operation lost or stuck',
    ok: wrong.length === 0,
    detail: wrong.length
      ? `${wrong.length} wrong: ${wrong.slice(0, 4).join('; ')}`
      : `${counts || 'none'}, each its scenario's final state, each one workflow run closed with it; the issuance closed`,
  };
}

/**
 * One journal entry per completed operation (reserve and supply moved by its value, in its
 * direction) and none for a failed one; reserve = completed mints − completed burns, supply =
 * −reserve; and the reserve's postings, in the order they were made, never take it below zero.
 */
async function ledger(pg: PgClient, platformId: string, issuer: Issuer, rows: OperationRow[]): Promise<Check> {
  const reserve = reserveAccountId(platformId, issuer.stablecoinId);
  const supply = supplyAccountId(platformId, issuer.stablecoinId);
  const { rows: postings } = await pg.query<{ key: string; account_id: string; amount: string }>(
    `select e.idempotency_key as key, p.account_id, p.amount::text from journal_entries e join postings p on p.entry_id = e.id where e.platform_id = $1 and e.idempotency_key like $2`,
    [platformId, `${ENTRY_KEY_PREFIX}%`],
  );
  const entries = new Map<string, Map<string, bigint>>();
  for (const p of postings) {
    const lines = entries.get(p.key) ?? new Map<string, bigint>();
    lines.set(p.account_id, (lines.get(p.account_id) ?? 0n) + BigInt(p.amount));
    entries.set(p.key, lines);
  }
  const problems: string[] = [];
  let expectedReserve = 0n;
  for (const r of rows) {
    const lines = entries.get(`${ENTRY_KEY_PREFIX}${r.id}`);
    entries.delete(`${ENTRY_KEY_PREFIX}${r.id}`);
    const signed = (r.operation_type === 'MINT' ? 1n : -1n) * BigInt(r.fiat_amount);
    if (r.status !== 'COMPLETED') {
      if (lines) problems.push(`${r.id} ${r.status} has a journal entry`);
      continue;
    }
    expectedReserve += signed;
    if (!lines) problems.push(`${r.id} COMPLETED has no journal entry`);
    else if (lines.size !== 2 || lines.get(reserve) !== signed || lines.get(supply) !== -signed)
      problems.push(`${r.id}: entry ${JSON.stringify(Object.fromEntries([...lines].map(([a, n]) => [a, String(n)])))}, expected reserve ${signed}`);
  }
  if (entries.size) problems.push(`${entries.size} stablecoin entries without an operation of this coin: ${[...entries.keys()].slice(0, 3).join(', ')}`);
  // Reserve and supply may go negative, so they keep no running balance: their balance is their postings.
  const { rows: balances } = await pg.query<{ id: string; balance: string }>(
    'select account_id as id, sum(amount)::text as balance from postings where account_id = any($1) group by account_id',
    [[reserve, supply]],
  );
  const balance = (id: string) => BigInt(balances.find((b) => b.id === id)?.balance ?? 0);
  if (balance(reserve) !== expectedReserve) problems.push(`reserve ${balance(reserve)}, completed mints − burns ${expectedReserve}`);
  if (balance(supply) !== -balance(reserve)) problems.push(`supply ${balance(supply)} is not −reserve (${balance(reserve)})`);
  // Every entry on the reserve posts under the coin's row lock, so posting ids follow the order the entries were made in.
  const { rows: history } = await pg.query<{ amount: string }>('select amount::text from postings where account_id = $1 order by id', [reserve]);
  let running = 0n;
  let lowest = 0n;
  for (const h of history) {
    running += BigInt(h.amount);
    if (running < lowest) lowest = running;
  }
  if (lowest < 0n) problems.push(`the reserve went down to ${lowest}`);
  const completed = rows.filter((r) => r.status === 'COMPLETED').length;
  return {
    name: 'stablecoin reserve and supply',
    ok: problems.length === 0,
    detail: problems.length
      ? problems.slice(0, 4).join('; ')
      : `${completed} completed operations ↔ ${completed} entries, failed ones none; reserve ${balance(reserve)} = mints − burns, supply ${balance(supply)}; reserve never below 0 over ${history.length} postings`,
  };
}

/**
 * A row's timestamps are set in its transaction, a moment before it commits: a mint's completion
 * or a burn's failure is taken to show only this much later (a longer transaction is rolled back
 * by any kill and retried with a fresh timestamp).
 */
const COMMIT_GRACE_MS = 5_000;

/**
 * What a burn may take changes when a burn is recorded (its value is claimed), when a burn fails
 * (released) and when a mint completes (added); a completed burn moves its claim into the reserve.
 * Claims count from the moment they are stamped, releases and additions from a grace later: any
 * error errs toward less available.
 */
function availabilityChanges(rows: OperationRow[]): { at: number; delta: bigint }[] {
  const changes: { at: number; delta: bigint }[] = [];
  for (const r of rows) {
    const cents = BigInt(r.fiat_amount);
    if (r.operation_type === 'MINT' && r.status === 'COMPLETED') changes.push({ at: r.updated_at.getTime() + COMMIT_GRACE_MS, delta: cents });
    if (r.operation_type === 'BURN') {
      changes.push({ at: r.created_at.getTime(), delta: -cents });
      if (r.status === 'FAILED' || r.status === 'EXPIRED') changes.push({ at: r.updated_at.getTime() + COMMIT_GRACE_MS, delta: cents });
    }
  }
  return changes.sort((a, b) => a.at - b.at);
}

/** The least that was available at any moment from `from` to `to`. */
function leastAvailable(changes: { at: number; delta: bigint }[], from: number, to: number): bigint {
  let available = changes.filter((c) => c.at <= from).reduce((sum, c) => sum + c.delta, 0n);
  let least = available;
  for (const c of changes.filter((c) => c.at > from && c.at <= to)) {
    available += c.delta;
    if (available < least) least = available;
  }
  return least;
}

/**
 * Each burn refused INSUFFICIENT_FUNDS asked for more than was available at some moment while it
 * was in flight (from its first attempt to its answer): the refusal was taken then, under the
 * coin's lock.
 */
function burnRefusals(sent: Sent[], rows: OperationRow[]): Check {
  const changes = availabilityChanges(rows);
  const untrue: string[] = [];
  let closest: bigint | undefined;
  const refused = sent.filter((o) => o.operation.kind === 'burn' && code(o) === 'INSUFFICIENT_FUNDS');
  for (const o of refused) {
    const least = leastAvailable(changes, o.stablecoin.sentAt, o.stablecoin.answeredAt);
    const margin = BigInt(o.operation.cents) - least;
    if (margin <= 0n) untrue.push(`burn of ${o.operation.cents} refused with at least ${least} available throughout`);
    if (closest === undefined || margin < closest) closest = margin;
  }
  return {
    name: 'stablecoin burns refused only when short',
    ok: untrue.length === 0,
    detail: untrue.length
      ? `${untrue.length} refused though the supply sufficed: ${untrue.slice(0, 3).join('; ')}`
      : `${refused.length} burns refused INSUFFICIENT_FUNDS, each beyond what was available while it was in flight${closest !== undefined ? ` (closest by ${closest} cents)` : ''}`,
  };
}

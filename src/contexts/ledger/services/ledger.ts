import type { EntityManager } from '@mikro-orm/postgresql';
import { LedgerAccount } from '../entities';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import { applyEntry, checkEntry, keepsRunningBalance, type PostingLine } from '../domain/ledger';

export interface PostEntryInput {
  platformId: string;
  /** Unique reason for this movement; posting it twice returns the first entry. */
  idempotencyKey: string;
  transactionId?: string;
  description: string;
  lines: PostingLine[];
  /**
   * Money reserved on accounts by this movement (positive) or no longer reserved (negative),
   * written with the balances: a hold moves funds out of the available balance and marks them
   * `held`, so the total balance still shows them until they leave.
   */
  heldChanges?: { accountId: string; delta: bigint }[];
  /**
   * The platform's system accounts this entry may be the first to use: created (in the entry's
   * transaction) only when the entry finds one missing, so an entry costs no statement for them.
   */
  systemAccounts?: SystemAccountSpec[];
}

export type SystemAccountSpec = [id: string, kind: LedgerAccount['kind']];

export interface PostEntryResult {
  entryId: string;
  alreadyPosted: boolean;
}

type Row = Record<string, unknown>;

/** A ledger account as postEntry reads it (int8 as text). */
type AccountRow = {
  id: string;
  platform_id: string;
  kind: string;
  currency: string;
  balance: string;
  held: string;
  allow_negative: boolean;
  created_at: Date;
  updated_at: Date;
};

// The raw statements below interpolate their parameters as escaped literals (as every MikroORM
// raw query does), and a list parameter as a comma-separated list: hence `array[?]`.

/**
 * Posts one balanced entry and updates the balances it touches, all in the caller's database
 * transaction, in two statements. The first locks the protected accounts (those that keep a
 * running balance: customers', platforms') in id order, so concurrent entries never deadlock,
 * reads the shared ones without a lock, and finds an entry already posted under the idempotency
 * key; the rules of domain/ledger are then checked before anything is written (a protected
 * account is never overdrawn, and the database's CHECK constraint stands behind that). The second
 * writes the entry, its postings and the protected accounts' balances together — or nothing, when
 * a concurrent twin with the same key got there first. A shared account (one that may go
 * negative: a platform's pending, clearing, fee, funding, card and reserve accounts) is never
 * locked nor written: its balance is the sum of its postings (`ledgerBalance`), so different
 * customers' payments of one platform never queue on its row.
 */
export async function postEntry(em: EntityManager, input: PostEntryInput): Promise<PostEntryResult> {
  if (!em.isInTransaction()) throw new Error('postEntry must run inside a database transaction');
  const shape = checkEntry(input.lines);
  if (shape.length > 0) throw new Error(`ledger entry rejected: ${describeViolations(shape)}`);
  const ctx = em.getTransactionContext();
  const sql = <T extends Row>(query: string, params: unknown[]) => em.getConnection().execute<T[]>(query, params, 'all', ctx);

  const ids = [...new Set([...input.lines.map((l) => l.accountId), ...(input.heldChanges ?? []).map((h) => h.accountId)])].sort();
  // allow_negative never changes, so filtering the lock on it is safe.
  const lookup = () =>
    sql<AccountRow & { posted: string | null }>(
      `with protected as (
         select id, platform_id, kind, currency, balance, held, allow_negative, created_at, updated_at from ledger_accounts
         where id = any(array[?]::text[]) and platform_id = ? and not allow_negative order by id for update),
       shared as (
         select id, platform_id, kind, currency, balance, held, allow_negative, created_at, updated_at from ledger_accounts
         where id = any(array[?]::text[]) and platform_id = ? and allow_negative)
       select id, platform_id, kind, currency, balance::text as balance, held::text as held, allow_negative, created_at, updated_at,
         (select id from journal_entries where idempotency_key = ?) as posted
       from (select * from protected union all select * from shared) accounts order by id`,
      [ids, input.platformId, ids, input.platformId, input.idempotencyKey],
    );
  let found = await lookup();
  if (found[0]?.posted) return { entryId: found[0].posted, alreadyPosted: true };
  const missing = (input.systemAccounts ?? []).filter(([id]) => ids.includes(id) && !found.some((a) => a.id === id));
  if (missing.length > 0) {
    // Only the first entry of a platform and currency gets here (provisioning creates them for its currencies).
    for (const currency of new Set(input.lines.map((l) => l.currency))) {
      const own = missing.filter(([id]) => input.lines.some((l) => l.accountId === id && l.currency === currency));
      if (own.length > 0) await ensureSystemAccountSet(em, input.platformId, currency, own);
    }
    found = await lookup();
    if (found[0]?.posted) return { entryId: found[0].posted, alreadyPosted: true };
  }
  const accounts = found.map((a) => ({ id: a.id, currency: a.currency, balance: BigInt(a.balance), held: BigInt(a.held), allowNegative: a.allow_negative }));
  const result = applyEntry(accounts, input.lines);
  if (!result.ok) {
    if (result.violations.some((v) => v.kind === 'INSUFFICIENT_FUNDS'))
      throw new DomainError('INSUFFICIENT_FUNDS', 'The account balance is too low for this movement');
    throw new Error(`ledger entry rejected: ${describeViolations(result.violations)}`);
  }
  const kept = new Map(accounts.filter(keepsRunningBalance).map((a) => [a.id, a]));
  const held = new Map([...kept.values()].map((a) => [a.id, a.held]));
  for (const change of input.heldChanges ?? []) {
    if (!held.has(change.accountId)) throw new Error(`ledger entry rejected: held changes only on a protected account of the entry, not ${change.accountId}`);
    held.set(change.accountId, held.get(change.accountId)! + change.delta);
  }
  const changed = [...kept.values()].filter((a) => result.balances.get(a.id) !== a.balance || held.get(a.id) !== a.held);

  const now = new Date();
  const entryId = newId('JournalEntry');
  const written = await sql<{ id: string }>(
    `with entry as (
       insert into journal_entries (id, platform_id, idempotency_key, transaction_id, description, created_at)
       values (?, ?, ?, ?, ?, ?) on conflict (idempotency_key) do nothing returning id),
     lines as (
       insert into postings (entry_id, account_id, currency, amount, created_at)
       select entry.id, line.account_id, line.currency, line.amount, ? from entry,
         unnest(array[?]::text[], array[?]::text[], array[?]::bigint[]) as line(account_id, currency, amount)),
     balances as (
       update ledger_accounts set balance = next.balance, held = next.held, updated_at = ?
       from unnest(array[?]::text[], array[?]::bigint[], array[?]::bigint[]) as next(id, balance, held)
       where ledger_accounts.id = next.id and exists (select 1 from entry))
     select id from entry`,
    [
      entryId,
      input.platformId,
      input.idempotencyKey,
      input.transactionId ?? null,
      input.description,
      now,
      now,
      input.lines.map((l) => l.accountId),
      input.lines.map((l) => l.currency),
      input.lines.map((l) => l.amount.toString()),
      now,
      changed.map((a) => a.id),
      changed.map((a) => result.balances.get(a.id)!.toString()),
      changed.map((a) => held.get(a.id)!.toString()),
    ],
  );
  if (written.length === 0) {
    // A concurrent entry with the same key committed between the two statements.
    const [first] = await sql<{ id: string }>('select id from journal_entries where idempotency_key = ?', [input.idempotencyKey]);
    return { entryId: first!.id, alreadyPosted: true };
  }
  // Accounts this unit of work already holds are brought up to date, and the protected accounts it
  // changed and did not hold are added as written, so later reads in the same transaction
  // (balance webhooks) find the new balances without asking the database; a shared account's
  // balance moves by this entry's lines.
  const uow = em.getUnitOfWork();
  for (const a of changed) {
    const managed = uow.getById<LedgerAccount>(LedgerAccount, a.id);
    if (!managed) {
      const { posted: _posted, ...row } = found.find((f) => f.id === a.id)!;
      em.map(LedgerAccount, { ...row, kind: row.kind as LedgerAccount['kind'], balance: result.balances.get(a.id)!, held: held.get(a.id)!, updated_at: now });
      continue;
    }
    managed.balance = result.balances.get(a.id)!;
    managed.storedBalance = managed.balance;
    managed.held = held.get(a.id)!;
    managed.updatedAt = now;
    uow.merge(managed);
  }
  for (const line of input.lines) {
    if (kept.has(line.accountId)) continue;
    const managed = uow.getById<LedgerAccount>(LedgerAccount, line.accountId);
    if (managed) managed.balance += line.amount;
  }
  return { entryId, alreadyPosted: false };
}

const describeViolations = (violations: unknown) => JSON.stringify(violations, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

/** The platform's sandbox money source for a currency: may go negative, it models the outside world. */
export function sandboxFundingAccountId(platformId: string, currency: string): string {
  return `Ledger:${platformId}:SANDBOX_FUNDING:${currency}`;
}

export async function ensureSystemAccount(em: EntityManager, platformId: string, id: string, kind: LedgerAccount['kind'], currency: string): Promise<void> {
  await ensureSystemAccountSet(em, platformId, currency, [[id, kind]]);
}

/** Creates the platform's system accounts of one currency that do not exist yet, in one statement. System accounts may go negative (and keep no running balance). */
export async function ensureSystemAccountSet(
  em: EntityManager,
  platformId: string,
  currency: string,
  accounts: [id: string, kind: LedgerAccount['kind']][],
): Promise<void> {
  const now = new Date();
  await em
    .createQueryBuilder(LedgerAccount)
    .insert(
      accounts.map(([id, kind]) => ({ id, platformId, kind, currency, allowNegative: true, storedBalance: 0n, held: 0n, createdAt: now, updatedAt: now })),
    )
    .onConflict('id')
    .ignore()
    .execute();
}

/**
 * An account's balance as the caller's transaction sees it: the stored running balance of a
 * protected account, the sum of its postings for an account that may go negative (whose row
 * postEntry never locks nor writes). Read it through here, not from the entity, where it guards money.
 */
export async function ledgerBalance(em: EntityManager, accountId: string): Promise<bigint> {
  const [row] = await em.getConnection().execute<{ balance: string }[]>(
    `select (case when a.allow_negative then (select coalesce(sum(p.amount), 0) from postings p where p.account_id = a.id) else a.balance end)::text as balance
     from ledger_accounts a where a.id = ?`,
    [accountId],
    'all',
    em.isInTransaction() ? em.getTransactionContext() : undefined,
  );
  return BigInt(row?.balance ?? 0);
}

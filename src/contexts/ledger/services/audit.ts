import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { InternalAccountType } from '../entities/InternalAccount';
import { auditInternalAccounts, type InternalAccountFinding } from '../domain/internal-accounts';
import { auditedBalance, auditLedger, type AuditFinding, type PostingLine } from '../domain/ledger';
import type { Minor } from '../../../domain/money';

/** Any break the audit reports: what kind, which account or row, and why. */
export interface LedgerAuditFinding {
  kind: string;
  subject: string;
  detail: string;
}

type Finding = AuditFinding | InternalAccountFinding | LedgerAuditFinding;

/** What a contributor reads with: SQL inside the audit's snapshot, and every ledger account's audited balance. */
export interface LedgerAuditReads {
  execute: <T extends object[]>(sql: string) => Promise<T>;
  balances: Map<string, Minor>;
}

/**
 * A higher context's check of the ledger accounts it posts to (card holds, stablecoin reserves).
 * The ledger knows no such context; the composition root passes their contributors in.
 */
export type LedgerAuditContributor = (reads: LedgerAuditReads) => Promise<LedgerAuditFinding[]>;

/**
 * Reads the whole ledger and checks it; returns every finding (none means healthy). Besides
 * the double-entry checks, every internal account (customer, platform, embedded wallet) must
 * be backed by a matching ledger account; each contributor then checks the accounts of its context
 * (cards, stablecoins) against what its rows explain. All reads share one snapshot (REPEATABLE READ), so
 * postings, balances and accounts written meanwhile cannot look like a break.
 */
export async function runLedgerAuditWith(
  em: EntityManager,
  contributors: readonly LedgerAuditContributor[],
): Promise<{ findings: Finding[]; entries: number; accounts: number }> {
  return em.transactional((tx) => audit(tx, contributors), { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
}

async function audit(em: EntityManager, contributors: readonly LedgerAuditContributor[]): Promise<{ findings: Finding[]; entries: number; accounts: number }> {
  const ctx = em.getTransactionContext();
  const conn = { execute: <T extends object[]>(sql: string) => em.getConnection().execute<T>(sql, [], 'all', ctx) };
  // int8 comes back as strings from raw queries; BigInt() keeps them exact.
  const postings = await conn.execute<{ entry_id: string; account_id: string; currency: string; amount: string }[]>(
    'select entry_id, account_id, currency, amount::text as amount from postings order by entry_id',
  );
  const accounts = await conn.execute<
    { id: string; platform_id: string; kind: string; currency: string; balance: string; held: string; allow_negative: boolean }[]
  >('select id, platform_id, kind, currency, balance::text as balance, held::text as held, allow_negative from ledger_accounts');
  const internalAccounts = await conn.execute<{ id: string; platform_id: string; customer_id: string | null; type: InternalAccountType; currency: string }[]>(
    'select id, platform_id, customer_id, type, currency from internal_accounts order by created_at, id',
  );
  const entries = new Map<string, PostingLine[]>();
  const postedTotals = new Map<string, bigint>();
  for (const p of postings) {
    const amount = BigInt(p.amount);
    const lines = entries.get(p.entry_id) ?? [];
    lines.push({ accountId: p.account_id, currency: p.currency, amount });
    entries.set(p.entry_id, lines);
    postedTotals.set(p.account_id, (postedTotals.get(p.account_id) ?? 0n) + amount);
  }
  const entryIds = await conn.execute<{ id: string }[]>('select id from journal_entries');
  for (const { id } of entryIds) if (!entries.has(id)) entries.set(id, []);
  const ledgerAccounts = accounts.map((a) => ({
    id: a.id,
    currency: a.currency,
    balance: BigInt(a.balance),
    held: BigInt(a.held),
    allowNegative: a.allow_negative,
  }));
  const findings: Finding[] = auditLedger({ entries: [...entries].map(([id, lines]) => ({ id, lines })), accounts: ledgerAccounts, postedTotals });
  // The contributors compare balances: a shared account's is the sum of its postings.
  const balances = new Map(ledgerAccounts.map((a) => [a.id, auditedBalance(a, postedTotals)]));
  findings.push(
    ...auditInternalAccounts(
      internalAccounts.map((a) => ({ id: a.id, platformId: a.platform_id, customerId: a.customer_id, type: a.type, currency: a.currency })),
      accounts.map((a) => ({ id: a.id, platformId: a.platform_id, kind: a.kind, currency: a.currency })),
    ),
  );
  // The higher contexts' checks, in the order given, inside the same snapshot.
  const reads: LedgerAuditReads = { execute: conn.execute, balances };
  for (const contribute of contributors) findings.push(...(await contribute(reads)));
  return { findings, entries: entries.size, accounts: accounts.length };
}

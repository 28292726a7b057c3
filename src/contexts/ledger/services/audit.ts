import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { InternalAccountType } from '../entities/InternalAccount';
import { auditInternalAccounts, type InternalAccountFinding } from '../domain/internal-accounts';
import { auditLedger, type AuditFinding, type PostingLine } from '../domain/ledger';

/**
 * Reads the whole ledger and checks it; returns every finding (none means healthy). Besides
 * the double-entry checks, every internal account (customer, platform, embedded wallet) must
 * be backed by a matching ledger account. All reads share one snapshot (REPEATABLE READ), so
 * postings, balances and accounts written meanwhile cannot look like a break.
 */
export async function runLedgerAudit(em: EntityManager): Promise<{ findings: (AuditFinding | InternalAccountFinding)[]; entries: number; accounts: number }> {
  return em.transactional((tx) => audit(tx), { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
}

async function audit(em: EntityManager): Promise<{ findings: (AuditFinding | InternalAccountFinding)[]; entries: number; accounts: number }> {
  const ctx = em.getTransactionContext();
  const conn = { execute: <T extends object[]>(sql: string) => em.getConnection().execute<T>(sql, [], 'all', ctx) };
  // int8 comes back as strings from raw queries; BigInt() keeps them exact.
  const postings = await conn.execute<{ entry_id: string; account_id: string; currency: string; amount: string }[]>(
    'select entry_id, account_id, currency, amount::text as amount from postings order by entry_id',
  );
  const accounts = await conn.execute<{ id: string; platform_id: string; kind: string; currency: string; balance: string; held: string; allow_negative: boolean }[]>(
    'select id, platform_id, kind, currency, balance::text as balance, held::text as held, allow_negative from ledger_accounts',
  );
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
  const findings: (AuditFinding | InternalAccountFinding)[] = auditLedger({
    entries: [...entries].map(([id, lines]) => ({ id, lines })),
    accounts: accounts.map((a) => ({ id: a.id, currency: a.currency, balance: BigInt(a.balance), held: BigInt(a.held), allowNegative: a.allow_negative })),
    postedTotals,
  });
  findings.push(
    ...auditInternalAccounts(
      internalAccounts.map((a) => ({ id: a.id, platformId: a.platform_id, customerId: a.customer_id, type: a.type, currency: a.currency })),
      accounts.map((a) => ({ id: a.id, platformId: a.platform_id, kind: a.kind, currency: a.currency })),
    ),
  );
  return { findings, entries: entries.size, accounts: accounts.length };
}

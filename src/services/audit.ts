import type { EntityManager } from '@mikro-orm/postgresql';
import { auditLedger, type AuditFinding, type PostingLine } from '../domain/ledger';

/** Reads the whole ledger and checks it; returns every finding (none means healthy). */
export async function runLedgerAudit(em: EntityManager): Promise<{ findings: AuditFinding[]; entries: number; accounts: number }> {
  const conn = em.getConnection();
  // int8 comes back as strings from raw queries; BigInt() keeps them exact.
  const postings = await conn.execute<{ entry_id: string; account_id: string; currency: string; amount: string }[]>(
    'select entry_id, account_id, currency, amount::text as amount from postings order by entry_id',
  );
  const accounts = await conn.execute<{ id: string; currency: string; balance: string; held: string; allow_negative: boolean }[]>(
    'select id, currency, balance::text as balance, held::text as held, allow_negative from ledger_accounts',
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
  const findings = auditLedger({
    entries: [...entries].map(([id, lines]) => ({ id, lines })),
    accounts: accounts.map((a) => ({ id: a.id, currency: a.currency, balance: BigInt(a.balance), held: BigInt(a.held), allowNegative: a.allow_negative })),
    postedTotals,
  });
  return { findings, entries: entries.size, accounts: accounts.length };
}

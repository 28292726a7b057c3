import type { EntityManager } from '@mikro-orm/postgresql';
import type { LedgerAccountKind } from '../entities';
import { currencyView } from '../../../domain/currencies';
import { postingSide, type PostingDirection } from '../domain/ledger';

export interface LedgerPostingView {
  accountId: string;
  accountKind: LedgerAccountKind;
  direction: PostingDirection;
  /** The posting's size in minor units, with its currency. */
  amount: { amount: bigint; currency: ReturnType<typeof currencyView> };
}

export interface LedgerEntryView {
  id: string;
  description: string;
  postedAt: string;
  postings: LedgerPostingView[];
}

interface PostingRow {
  entry_id: string;
  description: string;
  created_at: Date;
  account_id: string;
  kind: LedgerAccountKind;
  currency: string;
  amount: string;
}

/**
 * The journal entries a transaction posted (hold, settlement, release, return …), oldest first,
 * each with its postings as debits and credits. Only the platform's own: another platform's
 * transaction id finds nothing here.
 */
export async function transactionLedgerEntries(em: EntityManager, platformId: string, transactionId: string): Promise<LedgerEntryView[]> {
  const rows = await em.getConnection().execute<PostingRow[]>(
    `select e.id as entry_id, e.description, e.created_at, p.account_id, a.kind, p.currency, p.amount::text as amount
     from journal_entries e
     join postings p on p.entry_id = e.id
     join ledger_accounts a on a.id = p.account_id
     where e.transaction_id = ? and e.platform_id = ?
     order by e.created_at, e.id, p.id`,
    [transactionId, platformId],
  );
  const entries = new Map<string, LedgerEntryView>();
  for (const row of rows) {
    let entry = entries.get(row.entry_id);
    if (!entry) {
      entry = { id: row.entry_id, description: row.description, postedAt: new Date(row.created_at).toISOString(), postings: [] };
      entries.set(row.entry_id, entry);
    }
    const side = postingSide(BigInt(row.amount));
    entry.postings.push({
      accountId: row.account_id,
      accountKind: row.kind,
      direction: side.direction,
      amount: { amount: side.amount, currency: currencyView(row.currency) },
    });
  }
  return [...entries.values()];
}

import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { InternalAccountType } from '../entities/InternalAccount';
import { auditInternalAccounts, type InternalAccountFinding } from '../domain/internal-accounts';
import { auditedBalance, auditLedger, type AuditFinding, type PostingLine } from '../domain/ledger';
import { auditCardLedger, type CardLedgerFinding } from '../../cards/domain/card-audit';
import { cardHoldsAccountId, cardNetworkAccountId } from '../../cards/services/card-ledger';
import { auditStablecoinLedger, type StablecoinLedgerFinding } from '../../stablecoins/domain/stablecoin-audit';
import { reserveAccountId, supplyAccountId } from '../../stablecoins/services/stablecoin-ledger';

type Finding = AuditFinding | InternalAccountFinding | CardLedgerFinding | StablecoinLedgerFinding;

/**
 * Reads the whole ledger and checks it; returns every finding (none means healthy). Besides
 * the double-entry checks, every internal account (customer, platform, embedded wallet) must
 * be backed by a matching ledger account, and the card and stablecoin accounts must equal what
 * their transactions and operations explain. All reads share one snapshot (REPEATABLE READ), so
 * postings, balances and accounts written meanwhile cannot look like a break.
 */
export async function runLedgerAudit(em: EntityManager): Promise<{ findings: Finding[]; entries: number; accounts: number }> {
  return em.transactional((tx) => audit(tx), { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
}

async function audit(em: EntityManager): Promise<{ findings: Finding[]; entries: number; accounts: number }> {
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
  // The card and stablecoin checks compare balances: a shared account's is the sum of its postings.
  const balances = new Map(ledgerAccounts.map((a) => [a.id, auditedBalance(a, postedTotals)]));
  findings.push(
    ...auditInternalAccounts(
      internalAccounts.map((a) => ({ id: a.id, platformId: a.platform_id, customerId: a.customer_id, type: a.type, currency: a.currency })),
      accounts.map((a) => ({ id: a.id, platformId: a.platform_id, kind: a.kind, currency: a.currency })),
    ),
  );
  // Card holds and settlements: the card ledger accounts against the card transactions.
  const cardTotals = await conn.execute<{ platform_id: string; currency: string; held: string; to_network: string }[]>(
    `select platform_id, currency, sum(held_amount)::text as held,
       sum(case when direction = 'DEBIT' then settled_amount - refunded_amount else -settled_amount end)::text as to_network
     from card_transactions group by platform_id, currency`,
  );
  const fundingHolds = await conn.execute<{ account_id: string; card_held: string; account_held: string }[]>(
    `select t.account_id, sum(t.held_amount)::text as card_held, max(a.held)::text as account_held
     from card_transactions t join ledger_accounts a on a.id = t.account_id group by t.account_id`,
  );
  findings.push(
    ...auditCardLedger({
      totals: cardTotals.map((t) => ({ platformId: t.platform_id, currency: t.currency, held: BigInt(t.held), toNetwork: BigInt(t.to_network) })),
      balances,
      holdsAccountId: cardHoldsAccountId,
      networkAccountId: cardNetworkAccountId,
      fundingHolds: fundingHolds.map((f) => ({ accountId: f.account_id, cardHeld: BigInt(f.card_held), accountHeld: BigInt(f.account_held) })),
    }),
  );
  // Stablecoin reserve and supply: the coin's ledger accounts against its completed operations.
  const coinTotals = await conn.execute<{ platform_id: string; id: string; completed_net: string }[]>(
    `select c.platform_id, c.id,
       coalesce(sum(case o.operation_type when 'MINT' then o.fiat_amount else -o.fiat_amount end) filter (where o.status = 'COMPLETED'), 0)::text as completed_net
     from stablecoins c left join stablecoin_operations o on o.stablecoin_id = c.id group by c.platform_id, c.id`,
  );
  findings.push(
    ...auditStablecoinLedger({
      coins: coinTotals.map((c) => ({ platformId: c.platform_id, stablecoinId: c.id, completedNet: BigInt(c.completed_net) })),
      balances,
      reserveAccountId,
      supplyAccountId,
    }),
  );
  return { findings, entries: entries.size, accounts: accounts.length };
}

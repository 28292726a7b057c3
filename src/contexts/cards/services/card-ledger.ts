import type { EntityManager } from '@mikro-orm/postgresql';
import { type PostingLine, returnShortfallAccountId, ensureSystemAccountSet, postEntry } from '../../ledger';
import type { Movement } from '../domain/card-transactions';

/**
 * The ledger side of card transactions. Per platform and currency:
 * - CARD_HOLDS holds what open authorizations reserve: its balance is the sum of every open
 *   card transaction's held amount (the audit checks it). The funding account's `held` shows it.
 * - CARD_NETWORK is the card network (the outside world): what settled to merchants, minus what
 *   came back. It may go negative (credits to cards).
 * - A pull the funding account cannot cover (an over-auth clearing, a return reversal) is forced
 *   through: the network is paid and the pull is charged to the platform's RETURN_SHORTFALL
 *   (the transaction becomes EXCEPTION for operations to resolve).
 */
export const cardHoldsAccountId = (platformId: string, currency: string) => `Ledger:${platformId}:CARD_HOLDS:${currency}`;
export const cardNetworkAccountId = (platformId: string, currency: string) => `Ledger:${platformId}:CARD_NETWORK:${currency}`;

export interface CardPosting {
  platformId: string;
  cardTransactionId: string;
  fundingAccountId: string;
  currency: string;
  /** Unique per event (its issuer token): a retried activity posts once. */
  key: string;
  description: string;
}

export function movementLines(p: Pick<CardPosting, 'platformId' | 'fundingAccountId' | 'currency'>, m: Movement, pullFrom = p.fundingAccountId): PostingLine[] {
  const holds = cardHoldsAccountId(p.platformId, p.currency);
  const network = cardNetworkAccountId(p.platformId, p.currency);
  const byAccount = new Map<string, bigint>();
  const add = (account: string, amount: bigint) => byAccount.set(account, (byAccount.get(account) ?? 0n) + amount);
  add(p.fundingAccountId, -m.hold + m.release + m.credit);
  add(holds, m.hold - m.release - m.settleFromHold);
  add(network, m.settleFromHold + m.pull - m.credit);
  add(pullFrom, -m.pull);
  return [...byAccount].filter(([, amount]) => amount !== 0n).map(([accountId, amount]) => ({ accountId, currency: p.currency, amount }));
}

async function ensureCardAccounts(em: EntityManager, platformId: string, currency: string): Promise<void> {
  await ensureSystemAccountSet(em, platformId, currency, [
    [cardHoldsAccountId(platformId, currency), 'CARD_HOLDS'],
    [cardNetworkAccountId(platformId, currency), 'CARD_NETWORK'],
    [returnShortfallAccountId(platformId, currency), 'RETURN_SHORTFALL'],
  ]);
}

/**
 * Posts one event's movement as one balanced entry in the caller's transaction. Throws
 * INSUFFICIENT_FUNDS when the funding account cannot cover a hold or pull.
 */
export async function postMovement(em: EntityManager, p: CardPosting, m: Movement, options: { pullFromShortfall?: boolean } = {}): Promise<void> {
  await ensureCardAccounts(em, p.platformId, p.currency);
  const lines = movementLines(p, m, options.pullFromShortfall ? returnShortfallAccountId(p.platformId, p.currency) : p.fundingAccountId);
  if (lines.length === 0) return;
  const heldDelta = m.hold - m.release - m.settleFromHold;
  await postEntry(em, {
    platformId: p.platformId,
    idempotencyKey: p.key,
    transactionId: p.cardTransactionId,
    description: p.description,
    lines,
    ...(heldDelta !== 0n ? { heldChanges: [{ accountId: p.fundingAccountId, delta: heldDelta }] } : {}),
  });
}

/** What a card transaction took from its funding account (reference CardPullSummary, less pendingCount). */
export interface CardPulls {
  /** Pulls against the funding account: each entry that took money from it, and each pull that failed and was charged to the platform. */
  count: number;
  /** What those pulls took from the funding account (a failed pull took nothing). */
  totalAmount: bigint;
}

/**
 * The pulls of these card transactions, read from the ledger rather than counted beside it, so
 * they cannot drift from what moved: every entry of the transaction with a debit on its funding
 * account (the opening hold or pull, an advice that grows the hold, an over-auth clearing, a
 * return reversal), and every pull forced through from RETURN_SHORTFALL (it failed: counted, 0 taken).
 */
export async function cardPulls(
  em: EntityManager,
  rows: { id: string; platformId: string; accountId: string; currency: string }[],
): Promise<Map<string, CardPulls>> {
  const pulls = new Map(rows.map((r) => [r.id, { count: 0, totalAmount: 0n }]));
  if (rows.length === 0) return pulls;
  const fundingOf = new Map(rows.map((r) => [r.id, r.accountId]));
  const found = await em.getConnection().execute<{ transaction_id: string; account_id: string; entries: number; taken: string }[]>(
    `select e.transaction_id, p.account_id, count(distinct e.id)::int as entries, (-sum(p.amount))::text as taken
     from journal_entries e join postings p on p.entry_id = e.id
     where e.transaction_id = any(array[?]::text[]) and p.amount < 0 and p.account_id = any(array[?]::text[])
     group by e.transaction_id, p.account_id`,
    [rows.map((r) => r.id), [...new Set(rows.flatMap((r) => [r.accountId, returnShortfallAccountId(r.platformId, r.currency)]))]],
    'all',
    em.getTransactionContext(),
  );
  for (const row of found) {
    const summary = pulls.get(row.transaction_id)!;
    summary.count += row.entries;
    if (row.account_id === fundingOf.get(row.transaction_id)) summary.totalAmount += BigInt(row.taken);
  }
  return pulls;
}

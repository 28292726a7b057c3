import type { EntityManager } from '@mikro-orm/postgresql';
import type { PostingLine } from '../../ledger/domain/ledger';
import { returnShortfallAccountId } from '../../ledger/services/holds';
import { ensureSystemAccountSet, postEntry } from '../../ledger/services/ledger';
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

import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { JournalEntry, LedgerAccount, Posting } from '../entities';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import { applyEntry, type PostingLine } from '../domain/ledger';

export interface PostEntryInput {
  platformId: string;
  /** Unique reason for this movement; posting it twice returns the first entry. */
  idempotencyKey: string;
  transactionId?: string;
  description: string;
  lines: PostingLine[];
}

export interface PostEntryResult {
  entryId: string;
  alreadyPosted: boolean;
}

/**
 * Posts one balanced entry and updates the balances it touches, all in the caller's database
 * transaction. Accounts are locked in id order, so concurrent entries never deadlock and a
 * protected account is never overdrawn.
 */
export async function postEntry(em: EntityManager, input: PostEntryInput): Promise<PostEntryResult> {
  if (!em.isInTransaction()) throw new Error('postEntry must run inside a database transaction');
  const existing = await em.findOne(JournalEntry, { idempotencyKey: input.idempotencyKey });
  if (existing) return { entryId: existing.id, alreadyPosted: true };

  const ids = [...new Set(input.lines.map((l) => l.accountId))].sort();
  const accounts = await em.find(
    LedgerAccount,
    { id: { $in: ids }, platformId: input.platformId },
    { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } },
  );
  const result = applyEntry(accounts, input.lines);
  if (!result.ok) {
    const insufficient = result.violations.find((v) => v.kind === 'INSUFFICIENT_FUNDS');
    if (insufficient) throw new DomainError('INSUFFICIENT_FUNDS', 'The account balance is too low for this movement');
    throw new Error(`ledger entry rejected: ${JSON.stringify(result.violations, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
  }

  const now = new Date();
  const entry = em.create(JournalEntry, {
    id: newId('JournalEntry'),
    platformId: input.platformId,
    idempotencyKey: input.idempotencyKey,
    transactionId: input.transactionId ?? null,
    description: input.description,
    createdAt: now,
  });
  for (const line of input.lines) {
    em.create(Posting, { entryId: entry.id, accountId: line.accountId, currency: line.currency, amount: line.amount, createdAt: now });
  }
  for (const account of accounts) {
    const next = result.balances.get(account.id)!;
    if (next !== account.balance) {
      account.balance = next;
      account.updatedAt = now;
    }
  }
  await em.flush();
  return { entryId: entry.id, alreadyPosted: false };
}

/** The platform's sandbox money source for a currency: may go negative, it models the outside world. */
export function sandboxFundingAccountId(platformId: string, currency: string): string {
  return `Ledger:${platformId}:SANDBOX_FUNDING:${currency}`;
}

export async function ensureSystemAccount(em: EntityManager, platformId: string, id: string, kind: LedgerAccount['kind'], currency: string): Promise<void> {
  const now = new Date();
  await em
    .createQueryBuilder(LedgerAccount)
    .insert({ id, platformId, kind, currency, allowNegative: true, balance: 0n, held: 0n, createdAt: now, updatedAt: now })
    .onConflict('id')
    .ignore()
    .execute();
}

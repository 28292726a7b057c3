import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LedgerAccount } from '../entities';
import { takeBack, type PostingLine } from '../domain/ledger';
import { ensureSystemAccountSet, postEntry, type PostEntryResult, type SystemAccountSpec } from './ledger';

/**
 * Money on its way out. An outgoing payment first moves the amount from the payer's available
 * balance to the platform's PENDING_OUTGOING account (and marks it `held` on the payer's
 * account, so the total balance still shows it); settling sends it on to the rail and the fee
 * accounts, releasing returns it. Every step is one balanced entry, posted with the caller's
 * database transaction, idempotent by its key.
 */
export const pendingOutgoingAccountId = (platformId: string, currency: string) => `Ledger:${platformId}:PENDING_OUTGOING:${currency}`;
/** What left through a rail (or arrived from one): the outside world, may go negative. */
export const railClearingAccountId = (platformId: string, currency: string) => `Ledger:${platformId}:RAIL_CLEARING:${currency}`;
/** Fees the platform charged its customers (its own revenue). */
export const platformFeesAccountId = (platformId: string, currency: string) => `Ledger:${platformId}:PLATFORM_FEES:${currency}`;
/** Fees the service charged (the operator's revenue). */
export const serviceRevenueAccountId = (platformId: string, currency: string) => `Ledger:${platformId}:SERVICE_REVENUE:${currency}`;

/** The system accounts money on its way out passes through, in one currency (postEntry creates any still missing). */
export function payoutSystemAccounts(platformId: string, currency: string): SystemAccountSpec[] {
  return [
    [pendingOutgoingAccountId(platformId, currency), 'PENDING_OUTGOING'],
    [railClearingAccountId(platformId, currency), 'RAIL_CLEARING'],
    [platformFeesAccountId(platformId, currency), 'PLATFORM_FEES'],
    [serviceRevenueAccountId(platformId, currency), 'SERVICE_REVENUE'],
  ];
}

export interface HoldInput {
  platformId: string;
  transactionId: string;
  /** The payer's internal (ledger) account; absent when the money came from outside (real-time funding). */
  accountId?: string;
  currency: string;
  amount: bigint;
}

/** Takes the amount out of the available balance (INSUFFICIENT_FUNDS if it is not there). */
export async function holdFunds(em: EntityManager, input: HoldInput & { accountId: string }): Promise<PostEntryResult> {
  return postEntry(em, {
    platformId: input.platformId,
    idempotencyKey: `hold:${input.transactionId}`,
    transactionId: input.transactionId,
    description: 'Outgoing payment: funds held',
    lines: [
      { accountId: input.accountId, currency: input.currency, amount: -input.amount },
      { accountId: pendingOutgoingAccountId(input.platformId, input.currency), currency: input.currency, amount: input.amount },
    ],
    heldChanges: [{ accountId: input.accountId, delta: input.amount }],
    systemAccounts: payoutSystemAccounts(input.platformId, input.currency),
  });
}

export interface SettleInput extends HoldInput {
  serviceFees: bigint;
  platformFees: bigint;
  /** Where the converted amount goes: out through a rail, or to an internal account. */
  delivery: { receivingCurrency: string; receivedAmount: bigint; toAccountId?: string };
}

/**
 * The hold leaves: fees to the platform's and the service's fee accounts, the rest out through
 * the rail in the sending currency; in the receiving currency the rail (or the conversion) pays
 * the received amount to the destination when it is an internal account.
 */
export async function settleHold(em: EntityManager, input: SettleInput): Promise<PostEntryResult> {
  const { platformId, currency } = input;
  const converted = input.amount - input.serviceFees - input.platformFees;
  const lines: PostingLine[] = [
    { accountId: pendingOutgoingAccountId(platformId, currency), currency, amount: -input.amount },
    { accountId: railClearingAccountId(platformId, currency), currency, amount: converted },
  ];
  if (input.serviceFees > 0n) lines.push({ accountId: serviceRevenueAccountId(platformId, currency), currency, amount: input.serviceFees });
  if (input.platformFees > 0n) lines.push({ accountId: platformFeesAccountId(platformId, currency), currency, amount: input.platformFees });
  if (input.delivery.toAccountId) {
    const recv = input.delivery.receivingCurrency;
    lines.push({ accountId: railClearingAccountId(platformId, recv), currency: recv, amount: -input.delivery.receivedAmount });
    lines.push({ accountId: input.delivery.toAccountId, currency: recv, amount: input.delivery.receivedAmount });
  }
  return postEntry(em, {
    platformId,
    idempotencyKey: `settle-out:${input.transactionId}`,
    transactionId: input.transactionId,
    description: 'Outgoing payment settled',
    lines: mergeLines(lines),
    ...(input.accountId ? { heldChanges: [{ accountId: input.accountId, delta: -input.amount }] } : {}),
    systemAccounts: [...payoutSystemAccounts(platformId, currency), ...payoutSystemAccounts(platformId, input.delivery.receivingCurrency)],
  });
}

/**
 * Money for a real-time-funded payment arrived from outside (a bank transfer or deposit quoting
 * the quote's reference): it goes straight to PENDING_OUTGOING, where a hold would have put it.
 */
export async function receiveFunding(em: EntityManager, input: HoldInput): Promise<PostEntryResult> {
  return postEntry(em, {
    platformId: input.platformId,
    idempotencyKey: `funding:${input.transactionId}`,
    transactionId: input.transactionId,
    description: 'Real-time funding received',
    lines: [
      { accountId: railClearingAccountId(input.platformId, input.currency), currency: input.currency, amount: -input.amount },
      { accountId: pendingOutgoingAccountId(input.platformId, input.currency), currency: input.currency, amount: input.amount },
    ],
    systemAccounts: payoutSystemAccounts(input.platformId, input.currency),
  });
}

/** The hold goes back to the payer's available balance, or to the outside sender (a payment that failed before it left). */
export async function releaseHold(em: EntityManager, input: HoldInput): Promise<void> {
  const back = input.accountId ?? railClearingAccountId(input.platformId, input.currency);
  await postEntry(em, {
    platformId: input.platformId,
    idempotencyKey: `release:${input.transactionId}`,
    transactionId: input.transactionId,
    description: 'Outgoing payment: hold released (refund)',
    lines: [
      { accountId: pendingOutgoingAccountId(input.platformId, input.currency), currency: input.currency, amount: -input.amount },
      { accountId: back, currency: input.currency, amount: input.amount },
    ],
    ...(input.accountId ? { heldChanges: [{ accountId: input.accountId, delta: -input.amount }] } : {}),
  });
}

/**
 * A payout that had settled comes back (the receiving bank returned it): the whole amount sent is
 * refunded to the payer, the fees included, from the rail and the fee accounts.
 */
export async function refundSettled(em: EntityManager, input: Omit<SettleInput, 'delivery'>): Promise<void> {
  const { platformId, currency } = input;
  const lines: PostingLine[] = [
    { accountId: railClearingAccountId(platformId, currency), currency, amount: -(input.amount - input.serviceFees - input.platformFees) },
    { accountId: input.accountId ?? railClearingAccountId(platformId, currency), currency, amount: input.amount },
  ];
  if (input.serviceFees > 0n) lines.push({ accountId: serviceRevenueAccountId(platformId, currency), currency, amount: -input.serviceFees });
  if (input.platformFees > 0n) lines.push({ accountId: platformFeesAccountId(platformId, currency), currency, amount: -input.platformFees });
  await postEntry(em, {
    platformId,
    idempotencyKey: `return:${input.transactionId}`,
    transactionId: input.transactionId,
    description: 'Outgoing payment returned (refund)',
    lines: mergeLines(lines),
  });
}

/** What returned collections took back beyond the credited account's balance: owed to the platform by its customer. */
export const returnShortfallAccountId = (platformId: string, currency: string) => `Ledger:${platformId}:RETURN_SHORTFALL:${currency}`;

/**
 * A collected payment that had been credited to an internal account is returned by the bank that
 * sent it: the credit is taken back, the fees go back, and the whole amount leaves to the bank
 * (the exact reverse of funding + settlement). The account gives back what it holds; the rest is
 * charged to the platform's RETURN_SHORTFALL account, so no customer balance goes negative.
 */
export async function reverseCollectedCredit(em: EntityManager, input: SettleInput & { delivery: { toAccountId: string } }): Promise<void> {
  const { platformId, currency } = input;
  const recv = input.delivery.receivingCurrency;
  const received = input.delivery.receivedAmount;
  // The credited account is the entry's lowest id (internal accounts sort before `Ledger:` ones), so locking it first keeps the lock order.
  const credited = await em.findOneOrFail(LedgerAccount, { id: input.delivery.toAccountId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const { fromAccount, shortfall } = takeBack(credited.balance, received);
  await ensureSystemAccountSet(em, platformId, recv, [[returnShortfallAccountId(platformId, recv), 'RETURN_SHORTFALL']]);
  const lines: PostingLine[] = [
    { accountId: credited.id, currency: recv, amount: -fromAccount },
    { accountId: returnShortfallAccountId(platformId, recv), currency: recv, amount: -shortfall },
    { accountId: railClearingAccountId(platformId, recv), currency: recv, amount: received },
    { accountId: railClearingAccountId(platformId, currency), currency, amount: input.serviceFees + input.platformFees },
  ];
  if (input.serviceFees > 0n) lines.push({ accountId: serviceRevenueAccountId(platformId, currency), currency, amount: -input.serviceFees });
  if (input.platformFees > 0n) lines.push({ accountId: platformFeesAccountId(platformId, currency), currency, amount: -input.platformFees });
  await postEntry(em, {
    platformId,
    idempotencyKey: `return-in:${input.transactionId}`,
    transactionId: input.transactionId,
    description: 'Collected payment returned by the sending bank',
    lines: mergeLines(lines),
  });
}

/** One line per account and currency (an entry may name an account twice when currencies meet). */
function mergeLines(lines: PostingLine[]): PostingLine[] {
  const merged = new Map<string, PostingLine>();
  for (const line of lines) {
    const key = `${line.accountId}|${line.currency}`;
    const existing = merged.get(key);
    merged.set(key, existing ? { ...existing, amount: existing.amount + line.amount } : { ...line });
  }
  return [...merged.values()].filter((l) => l.amount !== 0n);
}

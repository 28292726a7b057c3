import type { Minor } from '../../../domain/money';
import type { CardState } from './card-state';

/**
 * Card transaction arithmetic (reference §3.9): what each network event does to the amounts of a
 * CardTransaction and which money moves. Pure; services turn a Movement into one ledger entry.
 */

export const CARD_TRANSACTION_STATUSES = ['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'REFUNDED', 'EXCEPTION'] as const;
export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUSES)[number];
export type Direction = 'DEBIT' | 'CREDIT';

export const DECLINE_REASONS = ['CARD_PAUSED', 'CARD_NOT_ACTIVE', 'INSUFFICIENT_FUNDS', 'SPEND_LIMIT_EXCEEDED', 'FUNDING_SOURCE_NOT_AUTHORIZED'] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** Sandbox: the last three characters of merchant.descriptor choose a decline (reference simulate/authorization). */
export const SANDBOX_DECLINE_SUFFIXES: Record<string, DeclineReason> = { '002': 'INSUFFICIENT_FUNDS', '003': 'CARD_PAUSED' };

/**
 * Sandbox: descriptor suffixes whose approved pull is confirmed later (reference
 * simulate/authorization): `005` confirms after the delay (PENDING → CONFIRMED), `006` is
 * confirmed FAILED although the money moved, which puts the transaction in EXCEPTION.
 */
export const SANDBOX_DELAYED_PULL_SUFFIXES: Record<string, 'CONFIRMED' | 'FAILED'> = { '005': 'CONFIRMED', '006': 'FAILED' };
export const SANDBOX_PULL_CONFIRMATION_SECONDS = 30;

export function sandboxPullConfirmation(descriptor: string): 'CONFIRMED' | 'FAILED' | null {
  return SANDBOX_DELAYED_PULL_SUFFIXES[descriptor.slice(-3)] ?? null;
}

export interface CardAmounts {
  direction: Direction;
  status: CardTransactionStatus;
  /** What the network authorized in total (re-sized by advices). */
  authorized: Minor;
  /** What is still held on the funding account for this authorization. */
  held: Minor;
  settled: Minor;
  refunded: Minor;
}

/**
 * Money an event moves, each part one pair of ledger lines:
 * - `settleFromHold`: held money goes to the card network (CARD_HOLDS → CARD_NETWORK, held shrinks);
 * - `pull`: taken straight from the funding account to the network (over-auth, financial auth, return reversal);
 * - `hold`: funding account → CARD_HOLDS (held grows); `release`: CARD_HOLDS → funding account;
 * - `credit`: network → funding account (returns, credits).
 */
export interface Movement {
  hold: Minor;
  release: Minor;
  settleFromHold: Minor;
  pull: Minor;
  credit: Minor;
}

export const NO_MOVEMENT: Movement = { hold: 0n, release: 0n, settleFromHold: 0n, pull: 0n, credit: 0n };

export type Plan = { ok: true; next: CardAmounts; movement: Movement } | { ok: false; message: string };

const refuse = (message: string): Plan => ({ ok: false, message });
const open = (s: CardTransactionStatus) => s === 'AUTHORIZED' || s === 'PARTIALLY_SETTLED';
const min = (a: Minor, b: Minor) => (a < b ? a : b);

/**
 * Why a debit authorization is declined, or null to approve it. `available` is advisory here:
 * the ledger's row lock decides for real when the hold is posted, so concurrent authorizations
 * can never take more than the account holds.
 */
export function declineReason(input: {
  cardState: CardState;
  amount: Minor;
  maxSpendPerTransaction: Minor | null;
  available: Minor;
  /** False for an embedded wallet with no ACTIVE delegated key for the card: nothing may sign its pull. */
  fundingAuthorized: boolean;
  descriptor: string;
  sandbox: boolean;
}): DeclineReason | null {
  if (input.sandbox) {
    const forced = SANDBOX_DECLINE_SUFFIXES[input.descriptor.slice(-3)];
    if (forced) return forced;
  }
  if (input.cardState === 'FROZEN') return 'CARD_PAUSED';
  if (input.cardState !== 'ACTIVE') return 'CARD_NOT_ACTIVE';
  // A transaction equal to the limit is allowed (reference Card notes).
  if (input.maxSpendPerTransaction !== null && input.amount > input.maxSpendPerTransaction) return 'SPEND_LIMIT_EXCEEDED';
  if (!input.fundingAuthorized) return 'FUNDING_SOURCE_NOT_AUTHORIZED';
  if (input.available < input.amount) return 'INSUFFICIENT_FUNDS';
  return null;
}

/** A new debit authorization: the whole amount is held. */
export function authorizationAmounts(amount: Minor): { amounts: CardAmounts; movement: Movement } {
  return {
    amounts: { direction: 'DEBIT', status: 'AUTHORIZED', authorized: amount, held: amount, settled: 0n, refunded: 0n },
    movement: { ...NO_MOVEMENT, hold: amount },
  };
}

/** A credit authorization: a pending credit, nothing moves until it clears. */
export function creditAuthorizationAmounts(amount: Minor): CardAmounts {
  return { direction: 'CREDIT', status: 'AUTHORIZED', authorized: amount, held: 0n, settled: 0n, refunded: 0n };
}

/** Single-message financial authorizations settle at once: debit pulls, credit credits. */
export function financialAmounts(direction: Direction, amount: Minor): { amounts: CardAmounts; movement: Movement } {
  return {
    amounts: { direction, status: 'SETTLED', authorized: amount, held: 0n, settled: amount, refunded: 0n },
    movement: direction === 'DEBIT' ? { ...NO_MOVEMENT, pull: amount } : { ...NO_MOVEMENT, credit: amount },
  };
}

/**
 * A clearing. Amount 0 is the authorization's expiry (reference). A debit clearing settles from
 * the hold first; beyond it (a tip over the authorization) the rest is pulled from the funding
 * account. Once what settled reaches what was authorized the transaction is SETTLED and what is
 * still held goes back; before that it is PARTIALLY_SETTLED and the rest stays held.
 */
export function planClearing(t: CardAmounts, amount: Minor): Plan {
  if (!open(t.status)) return refuse(`A ${t.status} card transaction cannot be cleared`);
  if (amount === 0n) return planExpiry(t);
  if (t.direction === 'CREDIT') {
    return { ok: true, next: { ...t, status: 'SETTLED', settled: t.settled + amount }, movement: { ...NO_MOVEMENT, credit: amount } };
  }
  const settleFromHold = min(amount, t.held);
  const pull = amount - settleFromHold;
  const settled = t.settled + amount;
  const complete = settled >= t.authorized;
  const heldAfter = t.held - settleFromHold;
  const release = complete ? heldAfter : 0n;
  return {
    ok: true,
    next: { ...t, status: complete ? 'SETTLED' : 'PARTIALLY_SETTLED', settled, held: heldAfter - release },
    movement: { ...NO_MOVEMENT, settleFromHold, pull, release },
  };
}

/**
 * The authorization lapses (clearing of 0, or its expiry timer): what is still held goes back.
 * The transaction ends SETTLED at what did settle (0 when nothing did): the reference's status
 * set has no EXPIRED, and SETTLED is the terminal state of a reconciled authorization.
 */
export function planExpiry(t: CardAmounts): Plan {
  if (!open(t.status)) return { ok: true, next: t, movement: NO_MOVEMENT };
  return { ok: true, next: { ...t, status: 'SETTLED', held: 0n }, movement: { ...NO_MOVEMENT, release: t.held } };
}

/** An advice re-sizes an open authorization to a new total: the hold grows or shrinks to match. */
export function planAdvice(t: CardAmounts, newTotal: Minor): Plan {
  if (t.direction !== 'DEBIT' || !open(t.status))
    return refuse(`An advice re-sizes only an open (AUTHORIZED or PARTIALLY_SETTLED) debit authorization; this one is ${t.status}`);
  if (newTotal < t.settled) return refuse(`The new total (${newTotal}) is below what already settled (${t.settled})`);
  const held = newTotal - t.settled;
  const delta = held - t.held;
  return {
    ok: true,
    next: { ...t, authorized: newTotal, held },
    movement: { ...NO_MOVEMENT, hold: delta > 0n ? delta : 0n, release: delta < 0n ? -delta : 0n },
  };
}

/** A merchant return of settled money: back to the funding account; all of it returned is REFUNDED. */
export function planReturn(t: CardAmounts, amount: Minor): Plan {
  if (t.direction !== 'DEBIT' || (t.status !== 'SETTLED' && t.status !== 'PARTIALLY_SETTLED'))
    return refuse(`Only a settled debit card transaction can be returned; this one is ${t.status}`);
  const returnable = t.settled - t.refunded;
  if (amount > returnable) return refuse(`At most ${returnable} can still be returned`);
  const refunded = t.refunded + amount;
  return { ok: true, next: { ...t, refunded, status: refunded === t.settled ? 'REFUNDED' : t.status }, movement: { ...NO_MOVEMENT, credit: amount } };
}

/** A return reversal undoes the returns of a REFUNDED transaction: the money is pulled again. */
export function planReturnReversal(t: CardAmounts): Plan {
  if (t.status !== 'REFUNDED') return refuse(`Only a REFUNDED card transaction can have its return reversed; this one is ${t.status}`);
  return { ok: true, next: { ...t, refunded: 0n, status: 'SETTLED' }, movement: { ...NO_MOVEMENT, pull: t.refunded } };
}

import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { derivedId } from '../../../domain/ids';
import { Customer } from '../../customers';
import { InternalAccount, LedgerAccount } from '../../ledger';
import { WebhookEvent, recordWebhookEvent } from '../../webhooks';
import { Card, CardTransaction, DelegatedKey } from '../entities';
import type { CardMerchant, CardTransactionKind } from '../entities/CardTransaction';
import {
  authorizationAmounts,
  creditAuthorizationAmounts,
  declineReason,
  financialAmounts,
  NO_MOVEMENT,
  planAdvice,
  planClearing,
  planExpiry,
  planReturn,
  planReturnReversal,
  sandboxPullConfirmation,
  type CardAmounts,
  type DeclineReason,
  type Movement,
  type Plan,
} from '../domain/card-transactions';
import { cardPulls, postMovement } from './card-ledger';
import { cardTransactionView } from './card-views';
import type { RecordedEvent } from './cards';

/**
 * How long an authorization that is never cleared keeps its hold: 7 days, the usual network
 * window for card-not-present authorizations. Its card's workflow releases the hold on a durable
 * timer of this length (overridable per run for tests).
 */
export const CARD_AUTHORIZATION_WINDOW_SECONDS = 7 * 24 * 3600;

/** Events that open a new card transaction (or, for a balance inquiry, none). */
export type OpeningKind = CardTransactionKind | 'BALANCE_INQUIRY';
/** Events that apply to an existing card transaction. */
export type FollowUpKind = 'CLEARING' | 'AUTHORIZATION_ADVICE' | 'RETURN' | 'RETURN_REVERSAL' | 'EXPIRY';

export type CardEvent =
  | { kind: OpeningKind; cardTransactionId: string; amount: string; currency: string; merchant: CardMerchant }
  | { kind: FollowUpKind; cardTransactionId: string; amount?: string };

export interface CardEventInput {
  cardId: string;
  /** The issuer's token of this event; unique, so a retried activity applies the event once. */
  token: string;
  event: CardEvent;
  /** For authorizations: how long until the hold expires. */
  authorizationWindowSeconds?: number;
}

export interface CardEventResult {
  issuerTransactionToken: string;
  cardTransactionId?: string;
  declineReason?: DeclineReason;
  /** Set when an authorization's hold is open: how long until the card's workflow must expire it (ms, counted now). */
  holdExpiresInMs?: number;
  /** Set when the opening pull awaits its confirmation (sandbox delayed-pull descriptors): the workflow confirms it later. */
  pullPending?: boolean;
  events: RecordedEvent[];
}

const msUntil = (at: Date) => Math.max(0, at.getTime() - Date.now());

/**
 * How long each of these authorizations keeps its hold from now (0 when nothing is held any
 * more): a continued card workflow sets its timers from this, counted after the read, so a
 * timer never fires before the stamped expiry.
 */
export async function holdExpiryDelays(em: EntityManager, cardTransactionIds: string[]): Promise<{ cardTransactionId: string; ms: number }[]> {
  const rows = await em.find(CardTransaction, { id: { $in: cardTransactionIds } }, { fields: ['expiresAt', 'heldAmount'] });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return cardTransactionIds.map((id) => {
    const row = byId.get(id);
    return { cardTransactionId: id, ms: row?.expiresAt && row.heldAmount > 0n ? msUntil(row.expiresAt) : 0 };
  });
}

const amountsOf = (t: CardTransaction): CardAmounts => ({
  direction: t.direction,
  status: t.status,
  authorized: t.authorizedAmount,
  held: t.heldAmount,
  settled: t.settledAmount,
  refunded: t.refundedAmount,
});

async function recordTransactionEvent(em: EntityManager, card: Card, t: CardTransaction, token: string): Promise<RecordedEvent> {
  const customer = await em.findOneOrFail(Customer, { id: t.customerId }, { fields: ['platformCustomerId'] });
  // Read in the event's own transaction: the summary includes the entry just posted.
  const pulls = (await cardPulls(em, [t])).get(t.id)!;
  const event = await recordWebhookEvent(em, {
    id: derivedId('Webhook', t.id, token),
    platformId: t.platformId,
    environment: card.environment,
    type: `CARD_TRANSACTION.${t.status}`,
    data: cardTransactionView(t, customer.platformCustomerId, pulls),
  });
  return { eventId: event.id, type: event.type };
}

const DESCRIPTIONS: Record<string, string> = {
  AUTHORIZATION: 'Card authorization: funds held',
  FINANCIAL_AUTHORIZATION: 'Card financial authorization settled',
  FINANCIAL_CREDIT_AUTHORIZATION: 'Card financial credit settled',
  CLEARING: 'Card clearing',
  AUTHORIZATION_ADVICE: 'Card authorization advice: hold re-sized',
  RETURN: 'Card return: money back to the funding account',
  RETURN_REVERSAL: 'Card return reversed',
  EXPIRY: 'Card authorization expired: hold released',
};

/**
 * Applies one card network event in one database transaction: the card is read under a shared
 * row lock (a concurrent state change waits, or is waited for), the money moves as one balanced
 * ledger entry and the card transaction and its webhook are written with it. A debit the funding
 * account cannot cover is declined by the ledger's own row lock, so concurrent authorizations
 * never take more than the account holds.
 */
export async function applyCardEvent(em: EntityManager, input: CardEventInput): Promise<CardEventResult> {
  return em.transactional(async (tx) => {
    const card = await tx.findOneOrFail(Card, { id: input.cardId }, { lockMode: LockMode.PESSIMISTIC_READ });
    const base = { issuerTransactionToken: input.token };
    const { event } = input;
    if (event.kind === 'BALANCE_INQUIRY') return { ...base, events: [] };
    const existing = await tx.findOne(CardTransaction, { id: event.cardTransactionId, cardId: card.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if ('merchant' in event) {
      if (existing)
        return {
          ...base,
          cardTransactionId: existing.id,
          ...(existing.expiresAt && existing.heldAmount > 0n ? { holdExpiresInMs: msUntil(existing.expiresAt) } : {}),
          events: [],
        };
      return openTransaction(tx, card, input, event);
    }
    if (!existing) throw DomainError.invalidInput([{ field: 'cardTransactionId', constraint: 'exists', message: 'No such card transaction on this card' }]);
    if (await tx.findOne(WebhookEvent, { id: derivedId('Webhook', existing.id, input.token) }, { fields: ['id'] }))
      return { ...base, cardTransactionId: existing.id, events: [] };
    return followUp(tx, card, existing, input, event);
  });
}

/**
 * Whether the card may pull from its funding account: always for an ordinary internal account; for
 * an embedded wallet only while an ACTIVE delegated key exists for this card and wallet (the
 * wallet's owner authorized the service to sign card payments from it; revoked, it no longer may).
 */
async function fundingAuthorized(em: EntityManager, cardId: string, fundingAccountId: string): Promise<boolean> {
  const account = await em.findOne(InternalAccount, { id: fundingAccountId }, { fields: ['type'] });
  if (account?.type !== 'EMBEDDED_WALLET') return true;
  return (await em.count(DelegatedKey, { cardId, fundingSourceId: fundingAccountId, status: 'ACTIVE' })) > 0;
}

async function openTransaction(
  tx: EntityManager,
  card: Card,
  input: CardEventInput,
  event: Extract<CardEvent, { merchant: CardMerchant }>,
): Promise<CardEventResult> {
  const amount = BigInt(event.amount);
  const kind = event.kind as CardTransactionKind;
  const fundingAccountId = card.fundingSources[0];
  const base = { issuerTransactionToken: input.token };
  if (event.currency !== card.currency)
    throw DomainError.invalidInput([
      { field: 'currency.code', constraint: 'enum', message: `The card's currency is ${card.currency}`, hint: { enum: [card.currency] } },
    ]);
  const debit = kind === 'AUTHORIZATION' || kind === 'FINANCIAL_AUTHORIZATION';
  let opened: { amounts: CardAmounts; movement: Movement };
  if (debit) {
    const funding = fundingAccountId ? await tx.findOne(LedgerAccount, { id: fundingAccountId }) : null;
    const reason = declineReason({
      cardState: card.state,
      amount,
      maxSpendPerTransaction: card.maxSpendPerTransaction ?? null,
      available: funding?.balance ?? 0n,
      fundingAuthorized: fundingAccountId ? await fundingAuthorized(tx, card.id, fundingAccountId) : false,
      descriptor: event.merchant.descriptor,
      sandbox: card.environment === 'SANDBOX',
    });
    if (reason) return { ...base, declineReason: reason, events: [] };
    opened = kind === 'AUTHORIZATION' ? authorizationAmounts(amount) : financialAmounts('DEBIT', amount);
  } else {
    // Credits to the card are not decisioned beyond the card being usable.
    if (card.state === 'CLOSED' || card.state === 'PROCESSING' || card.state === 'PENDING_KYC' || !fundingAccountId)
      return { ...base, declineReason: 'CARD_NOT_ACTIVE', events: [] };
    opened =
      kind === 'FINANCIAL_CREDIT_AUTHORIZATION' ? financialAmounts('CREDIT', amount) : { amounts: creditAuthorizationAmounts(amount), movement: NO_MOVEMENT };
  }
  const posting = {
    platformId: card.platformId,
    cardTransactionId: event.cardTransactionId,
    fundingAccountId: fundingAccountId!,
    currency: card.currency,
    key: `card:${input.token}`,
    description: DESCRIPTIONS[kind] ?? 'Card credit authorization',
  };
  try {
    await postMovement(tx, posting, opened.movement);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'INSUFFICIENT_FUNDS') return { ...base, declineReason: 'INSUFFICIENT_FUNDS', events: [] };
    throw err;
  }
  const now = new Date();
  const window = input.authorizationWindowSeconds ?? CARD_AUTHORIZATION_WINDOW_SECONDS;
  const holdsOpen = opened.amounts.held > 0n;
  const taken = debit ? opened.movement.hold + opened.movement.pull : 0n;
  const pullPending = taken > 0n && card.environment === 'SANDBOX' && sandboxPullConfirmation(event.merchant.descriptor) !== null;
  const t = tx.create(CardTransaction, {
    id: event.cardTransactionId,
    platformId: card.platformId,
    cardId: card.id,
    customerId: card.cardholderId,
    accountId: fundingAccountId!,
    currency: card.currency,
    direction: opened.amounts.direction,
    status: opened.amounts.status,
    kind,
    merchant: event.merchant,
    issuerTransactionToken: input.token,
    authorizedAmount: opened.amounts.authorized,
    heldAmount: opened.amounts.held,
    settledAmount: opened.amounts.settled,
    refundedAmount: 0n,
    settlementCount: opened.amounts.settled > 0n ? 1 : 0,
    refundCount: 0,
    pendingPulls: pullPending ? 1 : 0,
    eventCount: 1,
    expiresAt: holdsOpen ? new Date(now.getTime() + window * 1000) : null,
    authorizedAt: now,
    lastEventAt: now,
    createdAt: now,
    updatedAt: now,
  });
  await tx.flush();
  const events = [await recordTransactionEvent(tx, card, t, input.token)];
  return { ...base, cardTransactionId: t.id, ...(holdsOpen ? { holdExpiresInMs: window * 1000 } : {}), ...(pullPending ? { pullPending } : {}), events };
}

/**
 * The confirmation of a pending pull (sandbox delayed-pull descriptors), in one transaction:
 * `005` confirms it; `006` confirms it FAILED although the money moved, so the transaction goes
 * to EXCEPTION (CARD_TRANSACTION.EXCEPTION) for operations to reconcile; its hold stays where the
 * pull put it. A second confirmation finds nothing pending and changes nothing.
 */
export async function confirmCardPull(em: EntityManager, input: { cardId: string; cardTransactionId: string }): Promise<{ events: RecordedEvent[] }> {
  return em.transactional(async (tx) => {
    const card = await tx.findOneOrFail(Card, { id: input.cardId }, { lockMode: LockMode.PESSIMISTIC_READ });
    const t = await tx.findOneOrFail(CardTransaction, { id: input.cardTransactionId, cardId: card.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (t.pendingPulls === 0) return { events: [] };
    const now = new Date();
    t.pendingPulls = 0;
    t.lastEventAt = now;
    t.updatedAt = now;
    if (sandboxPullConfirmation(t.merchant.descriptor) !== 'FAILED') {
      await tx.flush();
      return { events: [] };
    }
    t.status = 'EXCEPTION';
    t.eventCount += 1;
    await tx.flush();
    return { events: [await recordTransactionEvent(tx, card, t, `pull-failed:${t.id}`)] };
  });
}

function planFor(t: CardAmounts, event: Extract<CardEvent, { kind: FollowUpKind }>): Plan {
  const amount = event.amount === undefined ? 0n : BigInt(event.amount);
  switch (event.kind) {
    case 'CLEARING':
      return planClearing(t, amount);
    case 'AUTHORIZATION_ADVICE':
      return planAdvice(t, amount);
    case 'RETURN':
      return planReturn(t, amount);
    case 'RETURN_REVERSAL':
      return planReturnReversal(t);
    case 'EXPIRY':
      return planExpiry(t);
  }
}

async function followUp(
  tx: EntityManager,
  card: Card,
  t: CardTransaction,
  input: CardEventInput,
  event: Extract<CardEvent, { kind: FollowUpKind }>,
): Promise<CardEventResult> {
  const base = { issuerTransactionToken: input.token, cardTransactionId: t.id };
  const plan = planFor(amountsOf(t), event);
  if (!plan.ok) throw DomainError.invalidInput([{ field: 'cardTransactionId', constraint: 'cardTransactionState', message: plan.message }]);
  const { next, movement } = plan;
  // An expiry that finds nothing left to release (cleared meanwhile) changes nothing.
  if (event.kind === 'EXPIRY' && movement.release === 0n && next.status === t.status) return { ...base, events: [] };
  const posting = {
    platformId: card.platformId,
    cardTransactionId: t.id,
    fundingAccountId: t.accountId,
    currency: t.currency,
    key: `card:${input.token}`,
    description: DESCRIPTIONS[event.kind]!,
  };
  let status = next.status;
  try {
    await postMovement(tx, posting, movement);
  } catch (err) {
    if (!(err instanceof DomainError && err.code === 'INSUFFICIENT_FUNDS')) throw err;
    // An advice asks for more than the account holds: refused, nothing changes.
    if (movement.pull === 0n) throw new DomainError('INSUFFICIENT_FUNDS', 'The funding account cannot cover the re-sized authorization');
    // The network has settled already: forced through, the pull is charged to the platform (EXCEPTION).
    await postMovement(tx, posting, movement, { pullFromShortfall: true });
    status = 'EXCEPTION';
  }
  const now = new Date();
  t.status = status;
  t.authorizedAmount = next.authorized;
  t.heldAmount = next.held;
  if (next.settled > t.settledAmount) t.settlementCount += 1;
  t.settledAmount = next.settled;
  if (event.kind === 'RETURN') t.refundCount += 1;
  t.refundedAmount = next.refunded;
  if (next.held === 0n) t.expiresAt = null;
  t.eventCount += 1;
  t.lastEventAt = now;
  t.updatedAt = now;
  await tx.flush();
  return { ...base, events: [await recordTransactionEvent(tx, card, t, input.token)] };
}

export async function findCardTransactionView(em: EntityManager, platformId: string, id: string) {
  const t = await em.findOne(CardTransaction, { id, platformId });
  if (!t) return null;
  const customer = await em.findOneOrFail(Customer, { id: t.customerId }, { fields: ['platformCustomerId'] });
  return cardTransactionView(t, customer.platformCustomerId, (await cardPulls(em, [t])).get(t.id)!);
}

export async function cardTransactionViews(em: EntityManager, rows: CardTransaction[]) {
  const customers = new Map(
    (await em.find(Customer, { id: { $in: [...new Set(rows.map((r) => r.customerId))] } }, { fields: ['platformCustomerId'] })).map((c) => [
      c.id,
      c.platformCustomerId,
    ]),
  );
  const pulls = await cardPulls(em, rows);
  return rows.map((r) => cardTransactionView(r, customers.get(r.customerId) ?? '', pulls.get(r.id)!));
}

import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { DomainError, type FieldError } from '../../../domain/errors';
import { derivedId, newId } from '../../../domain/ids';
import { listPage } from '../../../services/listing';
import { encrypt } from '../../../security/secrets';
import { Customer } from '../../customers';
import { InternalAccount } from '../../ledger';
import { Platform, type Environment } from '../../platforms';
import { recordWebhookEvent } from '../../webhooks';
import { Card } from '../entities';
import { cardLimitRefusal, planCardChange, type CardChange, type CardState } from '../domain/card-state';
import { newCvv, newSandboxPan, panHash } from '../domain/card-secrets';
import { cardView, type CardView } from './card-views';

export type RecordedEvent = { eventId: string; type: string };

export const CARD_STATE_CHANGE = 'CARD.STATE_CHANGE';
export const CARD_FUNDING_SOURCE_CHANGE = 'CARD.FUNDING_SOURCE_CHANGE';

/** Sandbox: a platformCardId ending in this is rejected by the simulated issuer (CLOSED, ISSUER_REJECTED). */
export const SANDBOX_ISSUER_REJECT_SUFFIX = '002';
/** How long a sandbox card stays PROCESSING before the simulated issuer answers (a durable timer). */
export const SANDBOX_ISSUER_SECONDS = 2;
/** How long a card is valid from issue. */
const VALID_YEARS = 3;

export interface NewCard {
  cardholderId: string;
  platformCardId?: string;
  form: 'VIRTUAL';
  fundingSources: string[];
  maxSpendPerTransaction?: bigint;
}

/**
 * Problems with funding sources as given for a cardholder: each must be one of the cardholder's
 * internal accounts on this platform, all in one currency (the card's, when it has one).
 */
export async function fundingSourceProblems(
  em: EntityManager,
  platformId: string,
  cardholderId: unknown,
  sources: unknown,
  cardCurrency?: string,
): Promise<FieldError[]> {
  if (!Array.isArray(sources) || typeof cardholderId !== 'string') return [];
  const ids = sources.filter((s): s is string => typeof s === 'string');
  const accounts = new Map((await em.find(InternalAccount, { id: { $in: ids }, platformId })).map((a) => [a.id, a]));
  const errors: FieldError[] = [];
  const currency = cardCurrency ?? accounts.get(ids[0] ?? '')?.currency;
  sources.forEach((id, i) => {
    if (typeof id !== 'string') return;
    const account = accounts.get(id);
    const field = `fundingSources.${i}`;
    if (!account || account.customerId !== cardholderId)
      errors.push({ field, constraint: 'fundingSourceIneligible', message: "Not one of the cardholder's internal accounts" });
    else if (account.status !== 'ACTIVE') errors.push({ field, constraint: 'fundingSourceIneligible', message: `The account is ${account.status}` });
    else if (currency && account.currency !== currency)
      errors.push({ field, constraint: 'fundingSourceIneligible', message: `Every funding source must be in the card's currency (${currency})` });
  });
  if (new Set(ids).size !== ids.length) errors.push({ field: 'fundingSources', constraint: 'uniqueItems', message: 'A funding source is listed twice' });
  return errors;
}

const kycNotApproved = (status: string) =>
  new DomainError('CARDHOLDER_KYC_NOT_APPROVED', `The cardholder's KYC status is ${status}; cards are issued only to APPROVED customers`);

/** Field checks of POST /cards that need stored data. */
export async function createProblems(em: EntityManager, platformId: string, body: Record<string, unknown>): Promise<FieldError[]> {
  if (typeof body.cardholderId !== 'string') return [];
  const cardholder = await em.findOne(Customer, { id: body.cardholderId, platformId, isDeleted: false });
  if (!cardholder) return [{ field: 'cardholderId', constraint: 'exists', message: 'No such customer' }];
  // Decided before the funding sources: a customer who is not approved may hold no account yet.
  if (cardholder.kycStatus !== 'APPROVED') throw kycNotApproved(cardholder.kycStatus);
  return fundingSourceProblems(em, platformId, body.cardholderId, body.fundingSources);
}

/**
 * Issues a card in PROCESSING. The platform row is locked while the live cards are counted, so
 * concurrent issues cannot pass the cap together. With an Idempotency-Key the card id derives
 * from it: a request repeated after its first attempt committed and died before answering finds
 * its card again (the cap does not count it twice) instead of issuing a second one.
 */
export async function createCard(
  em: EntityManager,
  input: { platformId: string; environment: Environment; body: NewCard; idempotencyKey?: string },
): Promise<Card> {
  const id = input.idempotencyKey ? derivedId('Card', input.platformId, 'card', input.idempotencyKey) : newId('Card');
  return em.transactional(async (tx) => {
    const platform = await tx.findOneOrFail(Platform, { id: input.platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const issued = await tx.findOne(Card, { id });
    if (issued) return issued;
    const cardholder = await tx.findOneOrFail(Customer, { id: input.body.cardholderId, platformId: platform.id });
    if (cardholder.kycStatus !== 'APPROVED') throw kycNotApproved(cardholder.kycStatus);
    const live = { state: { $ne: 'CLOSED' as CardState } };
    const [platformLive, cardholderLive] = await Promise.all([
      tx.count(Card, { platformId: platform.id, ...live }),
      tx.count(Card, { cardholderId: cardholder.id, ...live }),
    ]);
    const refusal = cardLimitRefusal(
      { maxLiveCards: platform.maxLiveCards ?? null, oneCardPerCardholder: platform.oneCardPerCardholder },
      { platform: platformLive, cardholder: cardholderLive },
    );
    if (refusal) throw new DomainError('CARD_LIMIT_REACHED', refusal);
    const funding = await tx.findOneOrFail(InternalAccount, { id: input.body.fundingSources[0]! });
    const now = new Date();
    return tx.create(Card, {
      id,
      platformId: platform.id,
      environment: input.environment,
      cardholderId: cardholder.id,
      platformCardId: input.body.platformCardId ?? id,
      state: 'PROCESSING',
      stateReason: null,
      form: input.body.form,
      fundingSources: input.body.fundingSources,
      maxSpendPerTransaction: input.body.maxSpendPerTransaction ?? null,
      currency: funding.currency,
      createdAt: now,
      updatedAt: now,
    });
  });
}

export async function findCard(em: EntityManager, platformId: string, cardId: string): Promise<Card> {
  const card = await em.findOne(Card, { id: cardId, platformId });
  if (!card) throw DomainError.notFound('Card');
  return card;
}

export interface CardListQuery {
  limit: number;
  cursor?: string;
  sortOrder?: 'asc' | 'desc';
  cardholderId?: string;
  accountId?: string;
  platformCardId?: string;
  state?: CardState;
}

export async function listCards(em: EntityManager, platformId: string, q: CardListQuery) {
  const where: Record<string, unknown> = { platformId };
  if (q.cardholderId) where.cardholderId = q.cardholderId;
  if (q.platformCardId) where.platformCardId = q.platformCardId;
  if (q.state) where.state = q.state;
  if (q.accountId) where.fundingSources = { $contains: [q.accountId] };
  return listPage(em, Card, where, q, (rows) => rows.map(cardView));
}

async function recordCardEvent(em: EntityManager, card: Card, type: string, step: string): Promise<RecordedEvent> {
  const event = await recordWebhookEvent(em, {
    id: derivedId('Webhook', card.id, step),
    platformId: card.platformId,
    environment: card.environment,
    type,
    data: cardView(card),
  });
  return { eventId: event.id, type: event.type };
}

/**
 * The simulated issuer's answer to a PROCESSING card: provisioned (ACTIVE, with its PAN sealed
 * and only its keyed hash and last four kept in clear) or, for the sandbox reject value,
 * CLOSED with ISSUER_REJECTED. A card no longer PROCESSING is left as it is.
 */
export async function provisionCard(em: EntityManager, masterKey: Buffer, cardId: string): Promise<{ state: CardState; events: RecordedEvent[] }> {
  return em.transactional(async (tx) => {
    const card = await tx.findOneOrFail(Card, { id: cardId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (card.state !== 'PROCESSING') return { state: card.state, events: [] };
    const now = new Date();
    if (card.platformCardId.endsWith(SANDBOX_ISSUER_REJECT_SUFFIX)) {
      card.state = 'CLOSED';
      card.stateReason = 'ISSUER_REJECTED';
    } else {
      const pan = newSandboxPan();
      card.sealedSecrets = encrypt(masterKey, JSON.stringify({ pan, cvv: newCvv() }));
      card.panHash = panHash(masterKey, pan);
      card.last4 = pan.slice(-4);
      card.brand = 'VISA';
      card.expMonth = now.getUTCMonth() + 1;
      card.expYear = now.getUTCFullYear() + VALID_YEARS;
      card.processorRef = `sandbox-processor-${randomUUID()}`;
      card.issuerRef = `sandbox-issuer-${randomUUID()}`;
      card.state = 'ACTIVE';
      card.stateReason = null;
    }
    card.updatedAt = now;
    await tx.flush();
    return { state: card.state, events: [await recordCardEvent(tx, card, CARD_STATE_CHANGE, 'issued')] };
  });
}

export interface CardChangeRequest {
  /** Unique per request (made by the workflow): a retried activity applies it once. */
  changeId: string;
  state?: 'ACTIVE' | 'FROZEN' | 'CLOSED';
  fundingSources?: string[];
  /** Decimal string (Temporal payloads are JSON); null clears the limit. */
  maxSpendPerTransaction?: string | null;
}

/**
 * One PATCH /cards/{id}, applied to the locked card: refused with the spec's code when the card
 * cannot make the change, else written with its webhooks in one transaction.
 */
export async function changeCard(em: EntityManager, cardId: string, request: CardChangeRequest): Promise<{ card: CardPayload; events: RecordedEvent[] }> {
  return em.transactional(async (tx) => {
    const card = await tx.findOneOrFail(Card, { id: cardId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const stateStep = `change:${request.changeId}:state`;
    const fundingStep = `change:${request.changeId}:funding`;
    // Applied already by an earlier attempt of this activity: answer as it did.
    const done = await tx
      .getConnection()
      .execute<{ id: string }[]>(
        'select id from webhook_events where id in (?, ?)',
        [derivedId('Webhook', card.id, stateStep), derivedId('Webhook', card.id, fundingStep)],
        'all',
        tx.getTransactionContext(),
      );
    if (done.length > 0) return { card: cardPayload(card), events: [] };
    const change: CardChange = {
      ...(request.state ? { state: request.state } : {}),
      ...(request.fundingSources ? { fundingSources: request.fundingSources } : {}),
      ...(request.maxSpendPerTransaction !== undefined
        ? { maxSpendPerTransaction: request.maxSpendPerTransaction === null ? null : BigInt(request.maxSpendPerTransaction) }
        : {}),
    };
    const plan = planCardChange(card.state, card.stateReason ?? null, change);
    if (!plan.ok) throw new DomainError(plan.code, plan.message);
    card.state = plan.state;
    card.stateReason = plan.stateReason;
    // A freeze or close voids the reveal link outstanding (only an ACTIVE card shows its details).
    if (plan.stateChanged) card.revealLinkId = null;
    if (change.fundingSources) card.fundingSources = change.fundingSources;
    // Closing detaches the card's funding sources (the reference's close); late clearings and
    // returns still find their account on the card transaction itself.
    const detached = plan.stateChanged && plan.state === 'CLOSED' && card.fundingSources.length > 0;
    if (detached) card.fundingSources = [];
    if (change.maxSpendPerTransaction !== undefined) card.maxSpendPerTransaction = change.maxSpendPerTransaction;
    card.updatedAt = new Date();
    await tx.flush();
    const events: RecordedEvent[] = [];
    if (plan.stateChanged) events.push(await recordCardEvent(tx, card, CARD_STATE_CHANGE, stateStep));
    if (change.fundingSources || detached) events.push(await recordCardEvent(tx, card, CARD_FUNDING_SOURCE_CHANGE, fundingStep));
    return { card: cardPayload(card), events };
  });
}

/** The card view as a workflow payload: Temporal's JSON cannot carry a bigint, so the limit travels as a decimal string. */
export type CardPayload = Omit<CardView, 'maxSpendPerTransaction'> & { maxSpendPerTransaction: string | null };

export function cardPayload(card: Card): CardPayload {
  const view = cardView(card);
  return { ...view, maxSpendPerTransaction: view.maxSpendPerTransaction === null ? null : view.maxSpendPerTransaction.toString() };
}

export function cardFromPayload(payload: CardPayload): CardView {
  return { ...payload, maxSpendPerTransaction: payload.maxSpendPerTransaction === null ? null : BigInt(payload.maxSpendPerTransaction) };
}

export async function cardState(em: EntityManager, cardId: string): Promise<CardState> {
  return (await em.findOneOrFail(Card, { id: cardId }, { fields: ['state'] })).state;
}

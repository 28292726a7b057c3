import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { CardNetworkEventArgs } from '../../../../workflows/cards/definitions';
import { derivedId, newId } from '../../../domain/ids';
import { logger } from '../../../logger';
import { changeCardOnWorkflow, sendCardNetworkEvent, startCardLifecycle, type CardRef } from '../starters/card-lifecycle';
import type { Card } from '../entities';
import { CARD_TIMING } from './card-timing';
import { cardFromPayload, createCard, findCard, type CardPayload } from './cards';
import { issueRevealLink } from './card-reveal';

/** The engine a card's operations run on. */
export interface CardEngine {
  temporal: Client;
  taskQueue?: string;
}

/** What the card's workflow knows of the card. */
export function cardRef(card: Card): CardRef {
  return { id: card.id, platformId: card.platformId, cardholderId: card.cardholderId, environment: card.environment };
}

/**
 * POST /cards: the card recorded (PROCESSING), then its lifecycle workflow started. The card is
 * recorded already when the start fails: the next update on it (update-with-start) starts it.
 */
export async function issueCard(em: EntityManager, engine: CardEngine, input: Parameters<typeof createCard>[1]): Promise<Card> {
  const card = await createCard(em, input);
  try {
    await startCardLifecycle(engine.temporal, cardRef(card), CARD_TIMING, { taskQueue: engine.taskQueue });
  } catch (err) {
    // The card is recorded; the next update on it (update-with-start) starts its workflow.
    logger.error({ err, cardId: card.id }, 'could not start the card lifecycle workflow');
  }
  return card;
}

/** PATCH /cards/{cardId}: the change is the card's workflow's to make; answered with the card as it left it. */
export async function changeCard(
  em: EntityManager,
  engine: CardEngine,
  platformId: string,
  cardId: string,
  change: Parameters<typeof changeCardOnWorkflow>[3],
) {
  const card = await findCard(em, platformId, cardId);
  const changed = await changeCardOnWorkflow(engine.temporal, cardRef(card), CARD_TIMING, change, { taskQueue: engine.taskQueue });
  return cardFromPayload(changed as CardPayload);
}

/** POST /cards/{cardId}/reveal: a reveal link, with an audit line naming the card and the token that asked (never the URL). */
export async function revealCard(em: EntityManager, config: Parameters<typeof issueRevealLink>[1], platformId: string, cardId: string, tokenId: string) {
  const card = await findCard(em, platformId, cardId);
  const link = await issueRevealLink(em, config, card);
  logger.info({ cardId: card.id, tokenId }, 'card reveal URL issued');
  return link;
}

/**
 * A sandbox card-network event, sent to the card's workflow as an update and answered with its
 * outcome. With an Idempotency-Key the event's token and a new card transaction's id derive from
 * it, so a request repeated after its first attempt was applied is not applied twice.
 */
export async function simulateCardNetworkEvent(
  em: EntityManager,
  engine: CardEngine,
  request: { platformId: string; cardId: string; idempotencyKey?: string | undefined },
  toEvent: (newTransactionId: string) => CardNetworkEventArgs['event'],
) {
  const { platformId, idempotencyKey } = request;
  const card = await findCard(em, platformId, request.cardId);
  const token = idempotencyKey ? derivedId('Request', platformId, 'card-simulation', idempotencyKey) : randomUUID();
  const newTransactionId = idempotencyKey ? derivedId('CardTransaction', platformId, 'card-simulation', idempotencyKey) : newId('CardTransaction');
  return sendCardNetworkEvent(engine.temporal, cardRef(card), CARD_TIMING, { token, event: toEvent(newTransactionId) }, { taskQueue: engine.taskQueue });
}

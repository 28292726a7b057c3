import { Card } from '../entities';
import { findOverdue, type StrandedStart } from '../../../temporal/start-stranded';
import { startCardLifecycle } from '../starters/card-lifecycle';
import { CARD_TIMING } from './card-timing';
import { SANDBOX_ISSUER_SECONDS } from './cards';

/**
 * A card is recorded PROCESSING first and its workflow started after the commit. If the process
 * dies in between, the card would wait for an issuer nobody asked. These are cards PROCESSING for
 * longer than the issuer takes plus the grace period; their workflow is started (workflow id =
 * card id, so a running one is joined, never doubled).
 */
export const strandedCards: StrandedStart<Card> = {
  name: 'cards',
  find: (em, scope) => findOverdue(em, Card, { state: 'PROCESSING' }, scope, { field: 'createdAt', afterSeconds: SANDBOX_ISSUER_SECONDS }),
  idOf: (card) => card.id,
  start: (client, card, { taskQueue }) => startCardLifecycle(client, card, CARD_TIMING, { taskQueue }),
};

import type { ActivityDeps } from '../deps';
import { applyCardEvent, confirmCardPull, holdExpiryDelays, type CardEventInput } from '../../src/contexts/cards/services/card-transactions';
import { cardState, changeCard, provisionCard, type CardChangeRequest } from '../../src/contexts/cards/services/cards';

/** Each step of a card's life is one database transaction that also records its webhooks. */
export function createActivities({ orm, masterKey }: ActivityDeps) {
  return {
    async cardState(input: { cardId: string }) {
      return cardState(orm.em.fork(), input.cardId);
    },
    async provisionCard(input: { cardId: string }) {
      return provisionCard(orm.em.fork(), masterKey, input.cardId);
    },
    async changeCard(input: { cardId: string; request: CardChangeRequest }) {
      return changeCard(orm.em.fork(), input.cardId, input.request);
    },
    async applyCardEvent(input: CardEventInput) {
      return applyCardEvent(orm.em.fork(), input);
    },
    async confirmCardPull(input: { cardId: string; cardTransactionId: string }) {
      return confirmCardPull(orm.em.fork(), input);
    },
    async holdExpiryDelays(input: { cardTransactionIds: string[] }) {
      return holdExpiryDelays(orm.em.fork(), input.cardTransactionIds);
    },
  };
}

/** What the card lifecycle workflow may call (imported type-only). */
export type CardActivities = ReturnType<typeof createActivities>;

import {
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { CardActivities } from '../../activities/cards';
import { BusinessStatusKey, CardIdKey, CustomerIdKey } from '../../src/temporal/search-attributes';
import { asApplicationFailure } from '../update-failures';
import { deliverEvents } from '../webhooks/announce';
import { cardNetworkEventUpdate, changeCardUpdate, type CardLifecycleInput, type CardNetworkEventOutcome } from './definitions';
import { oneStepAtATime } from '../one-step-at-a-time';

const activities = proxyActivities<CardActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

type Event = { eventId: string; type: string };

/**
 * The life of one card (workflow id = the card id). It waits out the simulated issuer (a durable
 * timer) and provisions the card, then serves the card's state changes and network events as
 * updates: state changes one at a time, so concurrent requests are each answered against the
 * state the one before them left (the database row lock stands behind that too). Every
 * authorization that holds money gets a durable timer that releases what is still held when it
 * expires. Webhooks are delivered from the main loop, so an update never waits for a receiver.
 * The run ends once the card is CLOSED and no hold is open; a long-lived card continues as new
 * with its open authorizations.
 */
export async function cardLifecycle(input: CardLifecycleInput): Promise<{ state: string }> {
  const { cardId } = input;
  const outbox: Event[] = [];
  const open = new Set<string>();
  const due: string[] = [];
  // Pulls awaiting their confirmation, and those whose confirmation is due.
  const pending = new Set<string>();
  const confirmable: string[] = [];
  const card: { state: string | null } = { state: null };
  const steps = oneStepAtATime();
  const exclusively = <T>(step: () => Promise<T>) => steps.run(step);

  const stateIs = (state: string) => {
    if (card.state !== state) upsertSearchAttributes([{ key: BusinessStatusKey, value: state }]);
    card.state = state;
  };

  // The activity that stamped (or read) the expiry counted the delay before this timer starts, so it never fires early.
  const watch = (cardTransactionId: string, delayMs: number) => {
    if (open.has(cardTransactionId)) return;
    open.add(cardTransactionId);
    void sleep(Math.max(1, delayMs)).then(() => due.push(cardTransactionId));
  };

  const awaitConfirmation = (cardTransactionId: string) => {
    if (pending.has(cardTransactionId)) return;
    pending.add(cardTransactionId);
    void sleep((input.pullConfirmationSeconds ?? 30) * 1000).then(() => confirmable.push(cardTransactionId));
  };

  setHandler(changeCardUpdate, (args) =>
    exclusively(async () => {
      try {
        const changed = await activities.changeCard({ cardId, request: { changeId: uuid4(), ...args } });
        outbox.push(...changed.events);
        stateIs(changed.card.state);
        return changed.card;
      } catch (err) {
        throw asApplicationFailure(err);
      }
    }),
  );

  setHandler(cardNetworkEventUpdate, async ({ token, event }): Promise<CardNetworkEventOutcome> => {
    try {
      const applied = await activities.applyCardEvent({ cardId, token, event, authorizationWindowSeconds: input.authorizationWindowSeconds });
      outbox.push(...applied.events);
      if (applied.cardTransactionId && applied.holdExpiresInMs !== undefined) watch(applied.cardTransactionId, applied.holdExpiresInMs);
      if (applied.cardTransactionId && applied.pullPending) awaitConfirmation(applied.cardTransactionId);
      return {
        issuerTransactionToken: applied.issuerTransactionToken,
        ...(applied.cardTransactionId ? { cardTransactionId: applied.cardTransactionId } : {}),
        ...(applied.declineReason ? { declineReason: applied.declineReason } : {}),
      };
    } catch (err) {
      throw asApplicationFailure(err);
    }
  });

  if (input.openAuthorizations?.length) {
    for (const { cardTransactionId, ms } of await activities.holdExpiryDelays({ cardTransactionIds: input.openAuthorizations })) watch(cardTransactionId, ms);
  }
  for (const cardTransactionId of input.pendingPulls ?? []) awaitConfirmation(cardTransactionId);
  stateIs(await activities.cardState({ cardId }));
  if (card.state === 'PROCESSING') {
    await sleep(input.issuerResponseSeconds * 1000);
    const issued = await exclusively(() => activities.provisionCard({ cardId }));
    outbox.push(...issued.events);
    stateIs(issued.state);
  }

  const attributes = [
    { key: CardIdKey, value: cardId },
    { key: CustomerIdKey, value: input.customerId },
  ];
  const finished = () => card.state === 'CLOSED' && open.size === 0 && pending.size === 0;
  const idle = () => outbox.length === 0 && due.length === 0 && confirmable.length === 0;
  for (;;) {
    await condition(() => !idle() || finished() || workflowInfo().continueAsNewSuggested);
    for (const cardTransactionId of due.splice(0)) {
      const expired = await activities.applyCardEvent({ cardId, token: `expiry:${cardTransactionId}`, event: { kind: 'EXPIRY', cardTransactionId } });
      open.delete(cardTransactionId);
      outbox.push(...expired.events);
    }
    for (const cardTransactionId of confirmable.splice(0)) {
      const confirmed = await activities.confirmCardPull({ cardId, cardTransactionId });
      pending.delete(cardTransactionId);
      outbox.push(...confirmed.events);
    }
    const events = outbox.splice(0);
    if (events.length > 0) await deliverEvents(input.platformId, events, attributes);
    if (!idle()) continue;
    if (finished() || workflowInfo().continueAsNewSuggested) {
      // Let running updates answer (and queue their work) before this run ends.
      await condition(() => !steps.busy && allHandlersFinished());
      if (!idle()) continue;
      if (finished()) break;
      await continueAsNew<typeof cardLifecycle>({ ...input, openAuthorizations: [...open], pendingPulls: [...pending] });
    }
  }
  return { state: card.state ?? 'CLOSED' };
}

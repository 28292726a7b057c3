import { WithStartWorkflowOperation, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { SignatureOf } from '../../../temporal/workflow-kind';
import {
  CARD_LIFECYCLE_WORKFLOW,
  type CardChangeArgs,
  type CardLifecycleInput,
  type CardNetworkEventArgs,
  type CardNetworkEventOutcome,
  cardNetworkEventUpdate,
  changeCardUpdate,
} from '../../../../workflows/cards/definitions';
import { CardIdKey, CustomerIdKey, PlatformIdKey } from '../../../temporal/search-attributes';
import { joiningStart, sendUpdate } from '../../../temporal/joining-start';

export interface CardRef {
  id: string;
  platformId: string;
  cardholderId: string;
  environment: 'SANDBOX' | 'PRODUCTION';
}

export interface CardTiming {
  issuerResponseSeconds: number;
  authorizationWindowSeconds: number;
  pullConfirmationSeconds: number;
}

/**
 * The lifecycle workflow of one card (workflow id = card id). Every way in starts it when it is
 * not running and otherwise joins the run there is: a card whose run ended (closed, nothing held)
 * gets a new run that reads its state from the database and issues nothing.
 */
function operation(card: CardRef, timing: CardTiming, taskQueue?: string) {
  const input: CardLifecycleInput = { cardId: card.id, platformId: card.platformId, customerId: card.cardholderId, environment: card.environment, ...timing };
  return joiningStart({
    workflow: CARD_LIFECYCLE_WORKFLOW,
    workflowId: card.id,
    taskQueue,
    reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    args: [input] as [CardLifecycleInput],
    searchAttributes: [
      { key: PlatformIdKey, value: card.platformId },
      { key: CustomerIdKey, value: card.cardholderId },
      { key: CardIdKey, value: card.id },
    ],
  });
}

/** POST /cards: the card is PROCESSING; its workflow waits for the issuer. */
export async function startCardLifecycle(client: Client, card: CardRef, timing: CardTiming, options: { taskQueue?: string } = {}): Promise<void> {
  await client.workflow.start<SignatureOf<typeof CARD_LIFECYCLE_WORKFLOW>>(CARD_LIFECYCLE_WORKFLOW.type, operation(card, timing, options.taskQueue));
}

/** PATCH /cards/{id}: the changed card, or the spec's refusal (409 INVALID_STATE_TRANSITION, CARD_ALREADY_CLOSED, CARD_NOT_MUTABLE). */
export async function changeCardOnWorkflow(
  client: Client,
  card: CardRef,
  timing: CardTiming,
  change: CardChangeArgs,
  options: { taskQueue?: string } = {},
): Promise<unknown> {
  return sendUpdate(() =>
    client.workflow.executeUpdateWithStart(changeCardUpdate, {
      args: [change],
      startWorkflowOperation: new WithStartWorkflowOperation<SignatureOf<typeof CARD_LIFECYCLE_WORKFLOW>>(
        CARD_LIFECYCLE_WORKFLOW.type,
        operation(card, timing, options.taskQueue),
      ),
    }),
  );
}

/** A sandbox network event on the card: its outcome (approved, declined with a reason), or a refusal. */
export async function sendCardNetworkEvent(
  client: Client,
  card: CardRef,
  timing: CardTiming,
  args: CardNetworkEventArgs,
  options: { taskQueue?: string } = {},
): Promise<CardNetworkEventOutcome> {
  return sendUpdate(() =>
    client.workflow.executeUpdateWithStart(cardNetworkEventUpdate, {
      args: [args],
      startWorkflowOperation: new WithStartWorkflowOperation<SignatureOf<typeof CARD_LIFECYCLE_WORKFLOW>>(
        CARD_LIFECYCLE_WORKFLOW.type,
        operation(card, timing, options.taskQueue),
      ),
    }),
  );
}

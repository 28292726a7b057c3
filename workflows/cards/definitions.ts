import { defineUpdate } from '@temporalio/workflow';
import type { WorkflowKind } from '../../src/temporal/workflow-kind';

/** Input and updates of the cardLifecycle workflow, shared with the API that starts it. */

export interface CardLifecycleInput {
  /** Also the workflow id: one lifecycle workflow per card. */
  cardId: string;
  platformId: string;
  customerId: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  /** The simulated issuer's answer comes after this long (a durable timer). */
  issuerResponseSeconds: number;
  /** How long an authorization's hold lasts before it is released. */
  authorizationWindowSeconds: number;
  /** When a delayed pull (sandbox descriptors 005, 006) is confirmed; 30 s when absent. */
  pullConfirmationSeconds?: number;
  /** Pulls awaiting confirmation, carried across continue-as-new. */
  pendingPulls?: string[];
  /** Authorizations with an open hold, carried across continue-as-new (their expiry is stamped in the database). */
  openAuthorizations?: string[];
}

/** PATCH /cards/{id}: answered with the card (the API's Card), or refused with the spec's 409 code. */
export interface CardChangeArgs {
  state?: 'ACTIVE' | 'FROZEN' | 'CLOSED';
  fundingSources?: string[];
  /** Decimal string; null clears the limit. */
  maxSpendPerTransaction?: string | null;
}
export const changeCardUpdate = defineUpdate<unknown, [CardChangeArgs]>('changeCard');

/** A card network event (sandbox simulations): applied on the card's workflow, answered with its outcome. */
export interface CardNetworkEventArgs {
  token: string;
  event:
    | {
        kind:
          | 'AUTHORIZATION'
          | 'CREDIT_AUTHORIZATION'
          | 'FINANCIAL_AUTHORIZATION'
          | 'FINANCIAL_CREDIT_AUTHORIZATION'
          | 'CREDIT_AUTHORIZATION_ADVICE'
          | 'BALANCE_INQUIRY';
        cardTransactionId: string;
        amount: string;
        currency: string;
        merchant: { descriptor: string; mcc?: string; country?: string };
      }
    | { kind: 'CLEARING' | 'AUTHORIZATION_ADVICE' | 'RETURN' | 'RETURN_REVERSAL'; cardTransactionId: string; amount?: string };
}
export interface CardNetworkEventOutcome {
  issuerTransactionToken: string;
  cardTransactionId?: string;
  declineReason?: string;
}
export const cardNetworkEventUpdate = defineUpdate<CardNetworkEventOutcome, [CardNetworkEventArgs]>('cardNetworkEvent');

/** The cardLifecycle workflow's kind: its type name, task queue, versioning behaviour and signature (src/temporal/workflow-kind.ts). */
export const CARD_LIFECYCLE_WORKFLOW: WorkflowKind<'cardLifecycle', (input: CardLifecycleInput) => Promise<{ state: string }>> = {
  type: 'cardLifecycle',
  taskQueue: 'cards',
  versioning: 'AUTO_UPGRADE',
};

import type { CardTiming } from '../starters/card-lifecycle';
import { CARD_AUTHORIZATION_WINDOW_SECONDS } from './card-transactions';
import { SANDBOX_PULL_CONFIRMATION_SECONDS } from '../domain/card-transactions';
import { SANDBOX_ISSUER_SECONDS } from './cards';

/** The durable timers of every card's workflow: the sandbox issuer's answer, the authorization window, a delayed pull's confirmation. */
export const CARD_TIMING: CardTiming = {
  issuerResponseSeconds: SANDBOX_ISSUER_SECONDS,
  authorizationWindowSeconds: CARD_AUTHORIZATION_WINDOW_SECONDS,
  pullConfirmationSeconds: SANDBOX_PULL_CONFIRMATION_SECONDS,
};

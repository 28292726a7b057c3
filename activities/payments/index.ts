import type { ActivityDeps } from '../deps';
import { incomingPaymentActivities } from './incoming-payments';
import { outgoingPaymentActivities } from './outgoing-payments';

export function createActivities(deps: ActivityDeps) {
  return { ...incomingPaymentActivities(deps), ...outgoingPaymentActivities(deps) };
}

/** What payment workflows may call (imported type-only by workflows). */
export type PaymentActivities = ReturnType<typeof createActivities>;

import type { ActivityDeps } from '../deps';
import { incomingPaymentActivities } from './incoming-payment-activities';
import { outgoingPaymentActivities } from './outgoing-payment-activities';

export function createActivities(deps: ActivityDeps) {
  return { ...incomingPaymentActivities(deps), ...outgoingPaymentActivities(deps) };
}

/** What payment workflows may call (imported type-only by workflows). */
export type PaymentActivities = ReturnType<typeof createActivities>;

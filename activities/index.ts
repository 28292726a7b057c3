import type { ActivityDeps } from './deps';
import { incomingPaymentActivities } from './incoming-payments';
import { verificationActivities } from './verifications';
import { webhookActivities } from './webhooks';

export type { ActivityDeps, WebhookSender } from './deps';

/** Builds every activity with its dependencies injected; the worker registers the result. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...incomingPaymentActivities(deps),
    ...webhookActivities(deps),
    ...verificationActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;

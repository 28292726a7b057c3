import type { ActivityDeps } from '../deps';
import { webhookActivities } from './webhooks';

export function createActivities(deps: ActivityDeps) {
  return { ...webhookActivities(deps) };
}

/** What webhook delivery may call (imported type-only by workflows). */
export type WebhookActivities = ReturnType<typeof createActivities>;

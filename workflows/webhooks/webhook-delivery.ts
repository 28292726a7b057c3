import { continueAsNew, log, proxyActivities, setHandler, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { WebhookActivities } from '../../activities/webhooks';
import { BusinessStatusKey } from '../../src/temporal/search-attributes';
import { isFinalOutcome, retryDelaySeconds, WEBHOOK_RETRY_POLICY, type DeliveryOutcome } from '../../src/contexts/webhooks/domain/webhook-retry';
import { webhookAttemptsQuery, type WebhookDeliveryInput, type WebhookDeliveryResult } from './definitions';

// Each attempt is one activity execution with no activity-level retry: the workflow owns the
// back-off on durable timers, so every attempt and its outcome is an event in the history.
const { deliverWebhook } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 1 },
});

const { markWebhookFailed } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Keeps histories short on long retry runs (an attempt is ~6 events). */
const ATTEMPTS_PER_RUN = 100;

/** Delivers one webhook event (workflow id = the event id), retrying with back-off for days. */
export async function webhookDelivery(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const policy = input.policy ?? WEBHOOK_RETRY_POLICY;
  let attempts = input.attemptsSoFar ?? 0;
  let elapsed = input.elapsedSeconds ?? 0;
  setHandler(webhookAttemptsQuery, () => attempts);

  // Handed over after a first attempt elsewhere: wait out the first back-off interval.
  if (input.firstAttemptAfterSeconds) {
    upsertSearchAttributes([{ key: BusinessStatusKey, value: 'RETRYING' }]);
    await sleep(input.firstAttemptAfterSeconds * 1000);
    elapsed += input.firstAttemptAfterSeconds;
  }

  for (let inThisRun = 0; ; inThisRun++) {
    let outcome: DeliveryOutcome;
    try {
      outcome = await deliverWebhook({ eventId: input.eventId });
    } catch (err) {
      // The activity itself failed (database down, time-out): count it as a failed attempt.
      outcome = { kind: 'UNREACHABLE', error: err instanceof Error ? err.message : String(err) };
    }
    // An attempt the endpoint's breaker held back posted nothing: not an attempt (old histories have none).
    if (outcome.kind !== 'PAUSED') attempts++;
    if (isFinalOutcome(outcome)) {
      upsertSearchAttributes([{ key: BusinessStatusKey, value: 'DELIVERED' }]);
      return { eventId: input.eventId, delivered: true, attempts, elapsedSeconds: elapsed, lastOutcome: outcome };
    }
    const delay = input.singleAttempt ? null : retryDelaySeconds(outcome, attempts, elapsed, policy);
    if (delay === null) {
      if (!input.singleAttempt) await markWebhookFailed({ eventId: input.eventId });
      upsertSearchAttributes([{ key: BusinessStatusKey, value: 'FAILED' }]);
      log.warn('webhook delivery gave up', { eventId: input.eventId, attempts });
      return { eventId: input.eventId, delivered: false, attempts, elapsedSeconds: elapsed, lastOutcome: outcome };
    }
    upsertSearchAttributes([{ key: BusinessStatusKey, value: 'RETRYING' }]);
    await sleep(delay * 1000);
    elapsed += delay;
    if (inThisRun + 1 >= ATTEMPTS_PER_RUN) {
      await continueAsNew<typeof webhookDelivery>({ ...input, attemptsSoFar: attempts, elapsedSeconds: elapsed, firstAttemptAfterSeconds: undefined });
    }
  }
}

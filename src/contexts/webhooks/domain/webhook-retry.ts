/**
 * Webhook retry policy: exponential back-off from 30 s, doubling, capped at 30 minutes
 * between attempts, for up to 7 days after the first attempt (the public API's policy).
 */
export const WEBHOOK_RETRY_POLICY = {
  initialIntervalSeconds: 30,
  backoffCoefficient: 2,
  maximumIntervalSeconds: 30 * 60,
  horizonSeconds: 7 * 24 * 60 * 60,
} as const;

export type WebhookRetryPolicy = {
  initialIntervalSeconds: number;
  backoffCoefficient: number;
  maximumIntervalSeconds: number;
  horizonSeconds: number;
};

/** Seconds to wait after failed attempt number `attempt` (1-based), or null when the horizon is reached. */
export function nextRetryDelaySeconds(attempt: number, elapsedSeconds: number, policy: WebhookRetryPolicy = WEBHOOK_RETRY_POLICY): number | null {
  const raw = policy.initialIntervalSeconds * policy.backoffCoefficient ** (attempt - 1);
  const delay = Math.min(raw, policy.maximumIntervalSeconds);
  return elapsedSeconds + delay > policy.horizonSeconds ? null : delay;
}

/**
 * Seconds to wait after an attempt with this outcome, `attempts` real attempts made so far: the
 * back-off, or the breaker's pause when that is longer; null when the horizon is reached. A paused
 * attempt does not advance the back-off.
 */
export function retryDelaySeconds(
  outcome: DeliveryOutcome,
  attempts: number,
  elapsedSeconds: number,
  policy: WebhookRetryPolicy = WEBHOOK_RETRY_POLICY,
): number | null {
  const backOff = nextRetryDelaySeconds(Math.max(attempts, 1), elapsedSeconds, policy);
  if (outcome.kind !== 'PAUSED' || backOff === null) return backOff;
  const delay = Math.max(backOff, outcome.retryAfterSeconds);
  return elapsedSeconds + delay > policy.horizonSeconds ? null : delay;
}

/** How long a retrying workflow waits before its first attempt, after a first attempt elsewhere with this outcome. */
export function handOverDelaySeconds(outcome: DeliveryOutcome): number {
  const backOff = nextRetryDelaySeconds(1, 0) ?? 0;
  return outcome.kind === 'PAUSED' ? Math.max(backOff, outcome.retryAfterSeconds) : backOff;
}

/** The outcome of one delivery attempt, as the delivery activity reports it. */
export type DeliveryOutcome =
  | { kind: 'DELIVERED'; status: number }
  | { kind: 'DUPLICATE'; status: 409 }
  | { kind: 'REJECTED'; status: number; body: string }
  | { kind: 'UNREACHABLE'; error: string }
  | { kind: 'NO_ENDPOINT' }
  /** Not posted: the endpoint's breaker is open (delivery-breaker.ts); not an attempt, retried after `retryAfterSeconds`. */
  | { kind: 'PAUSED'; retryAfterSeconds: number };

/** 2xx is delivered; 409 means the receiver already has it, which also stops retries. */
export function classifyResponse(status: number, body: string): DeliveryOutcome {
  if (status >= 200 && status < 300) return { kind: 'DELIVERED', status };
  if (status === 409) return { kind: 'DUPLICATE', status: 409 };
  return { kind: 'REJECTED', status, body: body.slice(0, 1000) };
}

export function isFinalOutcome(outcome: DeliveryOutcome): boolean {
  return outcome.kind === 'DELIVERED' || outcome.kind === 'DUPLICATE';
}

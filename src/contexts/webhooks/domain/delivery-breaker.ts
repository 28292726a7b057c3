import { WEBHOOK_RETRY_POLICY, type DeliveryOutcome } from './webhook-retry';

/**
 * The circuit breaker of one webhook endpoint (a platform and its endpoint URL). A receiver that
 * keeps failing would otherwise cost an HTTP attempt, an activity and a workflow task per event
 * and retry, thousands a minute in a flood, against an endpoint known to be down: after
 * `threshold` consecutive failed attempts the endpoint is paused, attempts meanwhile do not post,
 * and once the pause has passed one attempt probes it. A failed probe doubles the pause (up to
 * `maxPauseSeconds`), any answer that is not a failure closes the breaker.
 */
export interface BreakerSettings {
  threshold: number;
  firstPauseSeconds: number;
  maxPauseSeconds: number;
  /** How long a claimed probe keeps the other attempts paused: the attempt's activity time-out, after which a probe lost with its worker is claimed again. */
  probeWindowSeconds: number;
}

export const DELIVERY_BREAKER: BreakerSettings = {
  threshold: 20,
  firstPauseSeconds: 5 * 60,
  maxPauseSeconds: WEBHOOK_RETRY_POLICY.maximumIntervalSeconds,
  probeWindowSeconds: 60,
};

export interface BreakerState {
  /** Consecutive failed attempts. */
  failures: number;
  /** Attempts do not post before this time; null: closed. */
  pausedUntilMs: number | null;
  /** The current pause length: the next failed probe pauses for twice as long. */
  pauseSeconds: number;
}

export function closedBreaker(settings: BreakerSettings = DELIVERY_BREAKER): BreakerState {
  return { failures: 0, pausedUntilMs: null, pauseSeconds: settings.firstPauseSeconds };
}

/** What an attempt says about the endpoint's health. */
export type AttemptVerdict = 'FAILED' | 'ANSWERED' | 'NOT_AN_ATTEMPT';

/** No answer, a 5xx or a 429 is a failure; any other answer (2xx, 409, other 4xx, 3xx) shows a receiver that is up. */
export function verdictOf(outcome: DeliveryOutcome): AttemptVerdict {
  switch (outcome.kind) {
    case 'UNREACHABLE':
      return 'FAILED';
    case 'REJECTED':
      return outcome.status >= 500 || outcome.status === 429 ? 'FAILED' : 'ANSWERED';
    case 'DELIVERED':
    case 'DUPLICATE':
      return 'ANSWERED';
    case 'NO_ENDPOINT':
    case 'PAUSED':
      return 'NOT_AN_ATTEMPT';
  }
}

/** POST: closed; PROBE: the pause has passed, the attempt that claims the probe posts; PAUSED: no post. */
export function admission(state: BreakerState, nowMs: number): 'POST' | 'PROBE' | 'PAUSED' {
  if (state.pausedUntilMs === null) return 'POST';
  return state.pausedUntilMs <= nowMs ? 'PROBE' : 'PAUSED';
}

/** The state a probe's claim writes: the others stay paused while it runs. */
export function claimProbe(state: BreakerState, nowMs: number, settings: BreakerSettings): BreakerState {
  return { ...state, pausedUntilMs: nowMs + settings.probeWindowSeconds * 1000 };
}

/**
 * The outcome of an attempt that did not post: retry once the pause is over, plus a random spread
 * within one pause length, so that the events parked meanwhile do not all wake together.
 */
export function pausedOutcome(state: BreakerState, nowMs: number, random: () => number = Math.random): { kind: 'PAUSED'; retryAfterSeconds: number } {
  const left = Math.max(1, Math.ceil(((state.pausedUntilMs ?? nowMs) - nowMs) / 1000));
  return { kind: 'PAUSED', retryAfterSeconds: left + Math.floor(random() * state.pauseSeconds) };
}

/** The state after an attempt with this verdict; `probe`: the attempt was the claimed probe. */
export function afterAttempt(
  state: BreakerState,
  verdict: AttemptVerdict,
  { probe, nowMs }: { probe: boolean; nowMs: number },
  settings: BreakerSettings,
): BreakerState {
  if (verdict === 'NOT_AN_ATTEMPT') return state;
  if (verdict === 'ANSWERED') return closedBreaker(settings);
  const failures = state.failures + 1;
  if (probe) {
    const pauseSeconds = Math.min(state.pauseSeconds * 2, settings.maxPauseSeconds);
    return { failures, pausedUntilMs: nowMs + pauseSeconds * 1000, pauseSeconds };
  }
  // Open already (an attempt that posted before the breaker opened): the pause stays as it is.
  if (state.pausedUntilMs !== null) return { ...state, failures };
  if (failures < settings.threshold) return { ...state, failures };
  return { failures, pausedUntilMs: nowMs + state.pauseSeconds * 1000, pauseSeconds: state.pauseSeconds };
}

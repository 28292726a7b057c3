import {
  admission,
  afterAttempt,
  claimProbe,
  closedBreaker,
  DELIVERY_BREAKER,
  pausedOutcome,
  verdictOf,
  type BreakerSettings,
  type BreakerState,
} from '../../src/contexts/webhooks/domain/delivery-breaker';
import { handOverDelaySeconds, retryDelaySeconds, WEBHOOK_RETRY_POLICY, type DeliveryOutcome } from '../../src/contexts/webhooks/domain/webhook-retry';

const settings: BreakerSettings = DELIVERY_BREAKER;
const NOW = Date.parse('2026-11-26T12:00:00Z');
const failed = (state: BreakerState, times: number, nowMs = NOW) => {
  for (let i = 0; i < times; i++) state = afterAttempt(state, 'FAILED', { probe: false, nowMs }, settings);
  return state;
};

describe('the breaker settings', () => {
  test('opens after 20 failures, pauses 5 minutes first, at most 30 minutes (the retry policy cap)', () => {
    expect(settings).toMatchObject({ threshold: 20, firstPauseSeconds: 300, maxPauseSeconds: WEBHOOK_RETRY_POLICY.maximumIntervalSeconds });
  });
});

describe('what counts as a failure', () => {
  test.each<[DeliveryOutcome, string]>([
    [{ kind: 'UNREACHABLE', error: 'no answer' }, 'FAILED'],
    [{ kind: 'REJECTED', status: 500, body: '' }, 'FAILED'],
    [{ kind: 'REJECTED', status: 503, body: '' }, 'FAILED'],
    [{ kind: 'REJECTED', status: 429, body: '' }, 'FAILED'],
    [{ kind: 'DELIVERED', status: 200 }, 'ANSWERED'],
    [{ kind: 'DELIVERED', status: 204 }, 'ANSWERED'],
    [{ kind: 'DUPLICATE', status: 409 }, 'ANSWERED'],
    [{ kind: 'REJECTED', status: 400, body: '' }, 'ANSWERED'],
    [{ kind: 'REJECTED', status: 404, body: '' }, 'ANSWERED'],
    [{ kind: 'REJECTED', status: 302, body: '' }, 'ANSWERED'],
    [{ kind: 'NO_ENDPOINT' }, 'NOT_AN_ATTEMPT'],
    [{ kind: 'PAUSED', retryAfterSeconds: 10 }, 'NOT_AN_ATTEMPT'],
  ])('%j: %s', (outcome, verdict) => {
    expect(verdictOf(outcome)).toBe(verdict);
  });
});

describe('opening', () => {
  test('closed lets attempts post; 19 failures keep it closed, the 20th opens it for 5 minutes', () => {
    const closed = closedBreaker(settings);
    expect(admission(closed, NOW)).toBe('POST');
    const nineteen = failed(closed, 19);
    expect(nineteen).toEqual({ failures: 19, pausedUntilMs: null, pauseSeconds: 300 });
    expect(admission(nineteen, NOW)).toBe('POST');
    const open = failed(nineteen, 1);
    expect(open).toEqual({ failures: 20, pausedUntilMs: NOW + 300_000, pauseSeconds: 300 });
    expect(admission(open, NOW)).toBe('PAUSED');
    expect(admission(open, NOW + 299_999)).toBe('PAUSED');
  });

  test('any answer that is not a failure resets the count', () => {
    const reset = afterAttempt(failed(closedBreaker(settings), 19), 'ANSWERED', { probe: false, nowMs: NOW }, settings);
    expect(reset).toEqual(closedBreaker(settings));
    expect(failed(reset, 19).pausedUntilMs).toBeNull();
  });

  test('an attempt that is not one (no endpoint, paused) changes nothing', () => {
    const nineteen = failed(closedBreaker(settings), 19);
    expect(afterAttempt(nineteen, 'NOT_AN_ATTEMPT', { probe: false, nowMs: NOW }, settings)).toEqual(nineteen);
  });

  test('a failure while open (an attempt that posted before the breaker opened) does not extend the pause', () => {
    const open = failed(closedBreaker(settings), 20);
    expect(failed(open, 1, NOW + 60_000)).toEqual({ ...open, failures: 21 });
  });
});

describe('probing', () => {
  const open = failed(closedBreaker(settings), 20);

  test('once the pause has passed one attempt probes; its claim keeps the others paused for the probe window', () => {
    expect(admission(open, NOW + 300_000)).toBe('PROBE');
    const claimed = claimProbe(open, NOW + 300_000, settings);
    expect(claimed).toEqual({ ...open, pausedUntilMs: NOW + 300_000 + settings.probeWindowSeconds * 1000 });
    expect(admission(claimed, NOW + 300_000)).toBe('PAUSED');
  });

  test('a successful probe closes the breaker', () => {
    const claimed = claimProbe(open, NOW + 300_000, settings);
    expect(afterAttempt(claimed, 'ANSWERED', { probe: true, nowMs: NOW + 301_000 }, settings)).toEqual(closedBreaker(settings));
  });

  test('each failed probe doubles the pause, up to 30 minutes', () => {
    let state = open;
    const pauses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const now = state.pausedUntilMs!;
      expect(admission(state, now)).toBe('PROBE');
      state = afterAttempt(claimProbe(state, now, settings), 'FAILED', { probe: true, nowMs: now + 1000 }, settings);
      expect(state.pausedUntilMs).toBe(now + 1000 + state.pauseSeconds * 1000);
      pauses.push(state.pauseSeconds);
    }
    expect(pauses).toEqual([600, 1200, 1800, 1800, 1800, 1800]);
  });

  test('a probe that got no verdict (no endpoint) leaves the pause as it was claimed', () => {
    const claimed = claimProbe(open, NOW + 300_000, settings);
    expect(afterAttempt(claimed, 'NOT_AN_ATTEMPT', { probe: true, nowMs: NOW + 300_500 }, settings)).toEqual(claimed);
  });
});

describe('the paused outcome', () => {
  const open = failed(closedBreaker(settings), 20);

  test('waits out the time left plus a spread in [0, pause)', () => {
    expect(pausedOutcome(open, NOW + 100_000, () => 0)).toEqual({ kind: 'PAUSED', retryAfterSeconds: 200 });
    expect(pausedOutcome(open, NOW + 100_000, () => 0.999999)).toEqual({ kind: 'PAUSED', retryAfterSeconds: 200 + 299 });
    for (let i = 0; i < 200; i++) {
      const { retryAfterSeconds } = pausedOutcome(open, NOW + 100_000);
      expect(retryAfterSeconds).toBeGreaterThanOrEqual(200);
      expect(retryAfterSeconds).toBeLessThan(200 + 300);
      expect(Number.isInteger(retryAfterSeconds)).toBe(true);
    }
  });

  test('rounds the time left up, never below one second', () => {
    expect(pausedOutcome(open, NOW + 299_500, () => 0).retryAfterSeconds).toBe(1);
    expect(pausedOutcome({ ...open, pausedUntilMs: NOW }, NOW + 5_000, () => 0).retryAfterSeconds).toBe(1);
  });
});

describe('the delivery workflows after a paused attempt', () => {
  const paused = (retryAfterSeconds: number): DeliveryOutcome => ({ kind: 'PAUSED', retryAfterSeconds });
  const failure: DeliveryOutcome = { kind: 'REJECTED', status: 503, body: '' };

  test('a hand-over waits the longer of the first back-off and the pause', () => {
    expect(handOverDelaySeconds(failure)).toBe(30);
    expect(handOverDelaySeconds(paused(10))).toBe(30);
    expect(handOverDelaySeconds(paused(420))).toBe(420);
  });

  test('a retry waits the longer of its back-off and the pause, within the horizon', () => {
    expect(retryDelaySeconds(failure, 3, 0)).toBe(120);
    expect(retryDelaySeconds(paused(10), 3, 0)).toBe(120);
    expect(retryDelaySeconds(paused(500), 3, 0)).toBe(500);
    expect(retryDelaySeconds(paused(500), 0, 0)).toBe(500);
    expect(retryDelaySeconds(paused(10), 0, 0)).toBe(30);
    const horizon = WEBHOOK_RETRY_POLICY.horizonSeconds;
    expect(retryDelaySeconds(paused(500), 3, horizon - 500)).toBe(500);
    expect(retryDelaySeconds(paused(500), 3, horizon - 499)).toBeNull();
  });
});

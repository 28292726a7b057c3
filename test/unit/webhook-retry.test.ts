import {
  classifyResponse,
  isFinalOutcome,
  nextRetryDelaySeconds,
  WEBHOOK_RETRY_POLICY,
  type DeliveryOutcome,
} from '../../src/contexts/webhooks/domain/webhook-retry';

const DAY = 24 * 60 * 60;

describe('nextRetryDelaySeconds', () => {
  test('the default policy is 30 s doubling, capped at 30 min, for 7 days', () => {
    expect(WEBHOOK_RETRY_POLICY).toEqual({ initialIntervalSeconds: 30, backoffCoefficient: 2, maximumIntervalSeconds: 1800, horizonSeconds: 7 * DAY });
  });

  test('doubles from 30 s and caps at 1800 s', () => {
    const delays = Array.from({ length: 10 }, (_, i) => nextRetryDelaySeconds(i + 1, 0));
    expect(delays).toEqual([30, 60, 120, 240, 480, 960, 1800, 1800, 1800, 1800]);
  });

  test('stays capped for very high attempt numbers', () => {
    expect(nextRetryDelaySeconds(500, 0)).toBe(1800);
    expect(nextRetryDelaySeconds(5000, 0)).toBe(1800);
  });

  test('returns the delay when it lands exactly on the horizon, null one second past it', () => {
    expect(nextRetryDelaySeconds(1, 7 * DAY - 30)).toBe(30);
    expect(nextRetryDelaySeconds(1, 7 * DAY - 29)).toBeNull();
    expect(nextRetryDelaySeconds(20, 7 * DAY - 1800)).toBe(1800);
    expect(nextRetryDelaySeconds(20, 7 * DAY - 1799)).toBeNull();
    expect(nextRetryDelaySeconds(20, 7 * DAY)).toBeNull();
  });

  test('honours a custom policy', () => {
    const policy = { initialIntervalSeconds: 1, backoffCoefficient: 3, maximumIntervalSeconds: 20, horizonSeconds: 30 };
    expect([1, 2, 3, 4].map((a) => nextRetryDelaySeconds(a, 0, policy))).toEqual([1, 3, 9, 20]);
    expect(nextRetryDelaySeconds(4, 11, policy)).toBeNull();
  });

  test('the default policy gives 341 attempts within 7 days, and one more would exceed them', () => {
    // As the delivery workflow does: attempt, and on failure ask for the delay after it.
    let attempts = 1;
    let elapsed = 0;
    for (;;) {
      const delay = nextRetryDelaySeconds(attempts, elapsed);
      if (delay === null) break;
      elapsed += delay;
      attempts++;
      if (attempts > 10_000) throw new Error('retries never stop');
    }
    // 30 + 60 + ... + 960 = 1890 s, then 1800 s apart: 1890 + 334 * 1800 = 603090 s <= 604800 s.
    expect(attempts).toBe(341);
    expect(elapsed).toBe(603_090);
    expect(elapsed).toBeLessThanOrEqual(7 * DAY);
    expect(elapsed + Math.min(30 * 2 ** (attempts - 1), 1800)).toBeGreaterThan(7 * DAY);
  });
});

describe('classifyResponse', () => {
  test.each([200, 201, 202, 204, 299])('%i is DELIVERED', (status) => {
    expect(classifyResponse(status, 'ignored')).toEqual({ kind: 'DELIVERED', status });
  });

  test('409 is DUPLICATE', () => {
    expect(classifyResponse(409, 'already have it')).toEqual({ kind: 'DUPLICATE', status: 409 });
  });

  test.each([500, 404, 400, 301, 199, 300, 429, 503])('%i is REJECTED with its body', (status) => {
    expect(classifyResponse(status, 'nope')).toEqual({ kind: 'REJECTED', status, body: 'nope' });
  });

  test('truncates a rejected body to 1000 characters', () => {
    const outcome = classifyResponse(500, 'a'.repeat(999) + 'b' + 'c'.repeat(5000));
    expect(outcome.kind).toBe('REJECTED');
    if (outcome.kind !== 'REJECTED') return;
    expect(outcome.body).toHaveLength(1000);
    expect(outcome.body.endsWith('ab')).toBe(true);
  });

  test('keeps a 1000-character body whole', () => {
    const body = 'x'.repeat(1000);
    expect(classifyResponse(500, body)).toEqual({ kind: 'REJECTED', status: 500, body });
  });
});

describe('isFinalOutcome', () => {
  test.each<[DeliveryOutcome, boolean]>([
    [{ kind: 'DELIVERED', status: 200 }, true],
    [{ kind: 'DUPLICATE', status: 409 }, true],
    [{ kind: 'REJECTED', status: 500, body: '' }, false],
    [{ kind: 'UNREACHABLE', error: 'ECONNREFUSED' }, false],
    [{ kind: 'NO_ENDPOINT' }, false],
  ])('%j → %p', (outcome, final) => {
    expect(isFinalOutcome(outcome)).toBe(final);
  });

  test('follows classifyResponse: 2xx and 409 stop retries, 500 does not', () => {
    expect(isFinalOutcome(classifyResponse(204, ''))).toBe(true);
    expect(isFinalOutcome(classifyResponse(409, ''))).toBe(true);
    expect(isFinalOutcome(classifyResponse(500, ''))).toBe(false);
  });
});

import { DEFAULT_ABUSE_LIMITS, loadAbuseLimits } from '../../src/config';
import { FailureThrottle } from '../../src/security/failure-throttle';
import { throttledAddress } from '../../src/security/client-address';
import { TokenBuckets } from '../../src/security/token-bucket';

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('TokenBuckets', () => {
  test('a burst goes through, the next request waits for one refill, then one more goes through', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(2, 3, clock.now);
    expect([1, 2, 3].map(() => buckets.take('t').allowed)).toEqual([true, true, true]);
    expect(buckets.take('t')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(499);
    expect(buckets.take('t').allowed).toBe(false);
    clock.advance(1);
    expect(buckets.take('t').allowed).toBe(true);
    expect(buckets.take('t').allowed).toBe(false);
  });

  test('Retry-After is the whole seconds one token takes to come back at a slow rate', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(0.25, 1, clock.now);
    expect(buckets.take('t').allowed).toBe(true);
    expect(buckets.take('t')).toEqual({ allowed: false, retryAfterSeconds: 4 });
    clock.advance(3_000);
    expect(buckets.take('t')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  test('keys do not share a bucket, and a bucket never holds more than the burst', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(1, 2, clock.now);
    buckets.take('a');
    buckets.take('a');
    expect(buckets.take('a').allowed).toBe(false);
    expect(buckets.take('b').allowed).toBe(true);
    clock.advance(3_600_000);
    expect([1, 2, 3].map(() => buckets.take('a').allowed)).toEqual([true, true, false]);
  });
});

describe('FailureThrottle', () => {
  const policy = { failuresBeforeLockout: 3, firstLockoutMs: 2_000, maxLockoutMs: 10_000 };

  test('no lockout below the allowance; then a window that doubles with each further failure, capped', () => {
    const clock = manualClock();
    const throttle = new FailureThrottle(policy, clock.now);
    throttle.fail('k');
    throttle.fail('k');
    expect(throttle.lockedForSeconds('k')).toBe(0);
    throttle.fail('k');
    expect(throttle.lockedForSeconds('k')).toBe(2);
    clock.advance(2_000);
    expect(throttle.lockedForSeconds('k')).toBe(0);
    throttle.fail('k');
    expect(throttle.lockedForSeconds('k')).toBe(4);
    clock.advance(4_000);
    throttle.fail('k');
    expect(throttle.lockedForSeconds('k')).toBe(8);
    clock.advance(8_000);
    throttle.fail('k');
    expect(throttle.lockedForSeconds('k')).toBe(10);
  });

  test('other keys are not affected', () => {
    const clock = manualClock();
    const throttle = new FailureThrottle(policy, clock.now);
    for (let i = 0; i < 3; i++) throttle.fail('k');
    expect(throttle.lockedForSeconds('k')).toBe(2);
    expect(throttle.lockedForSeconds('other')).toBe(0);
  });

  test('a quiet period as long as the longest lockout forgets the failures', () => {
    const clock = manualClock();
    const throttle = new FailureThrottle(policy, clock.now);
    for (let i = 0; i < 5; i++) throttle.fail('k');
    clock.advance(10_001 + 10_000);
    throttle.fail('k');
    expect(throttle.lockedForSeconds('k')).toBe(0);
  });

  test('beyond maxKeys the least recently failed key is forgotten', () => {
    const clock = manualClock();
    const throttle = new FailureThrottle({ ...policy, failuresBeforeLockout: 1 }, clock.now, 2);
    throttle.fail('a');
    throttle.fail('b');
    throttle.fail('c');
    expect(['a', 'b', 'c'].map((k) => throttle.lockedForSeconds(k))).toEqual([0, 2, 2]);
  });
});

describe('loadAbuseLimits', () => {
  test('defaults without variables; each variable overrides its limit', () => {
    expect(loadAbuseLimits({})).toEqual(DEFAULT_ABUSE_LIMITS);
    expect(
      loadAbuseLimits({
        RATE_LIMIT_PER_SECOND: '5',
        RATE_LIMIT_BURST: '10',
        AUTH_FAILURES_BEFORE_LOCKOUT: '3',
        AUTH_LOCKOUT_SECONDS: '2',
        AUTH_LOCKOUT_MAX_SECONDS: '60',
      }),
    ).toEqual({
      requestsPerSecond: 5,
      requestBurst: 10,
      authFailuresBeforeLockout: 3,
      authLockoutSeconds: 2,
      authLockoutMaxSeconds: 60,
    });
  });

  test.each([['0'], ['-1'], ['many']])('refuses %s', (value) => {
    expect(() => loadAbuseLimits({ RATE_LIMIT_BURST: value })).toThrow('RATE_LIMIT_BURST must be a positive number');
  });
});

describe('throttledAddress', () => {
  test('IPv4 as itself, IPv4-mapped IPv6 as its IPv4, IPv6 by its /64', () => {
    expect(throttledAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(throttledAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(throttledAddress('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(throttledAddress('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(throttledAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(throttledAddress('::1')).toBe('0:0:0:0::/64');
    expect(throttledAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(throttledAddress(undefined)).toBe('unknown');
  });
});

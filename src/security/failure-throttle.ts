export interface LockoutPolicy {
  /** Failures allowed before the first lockout. */
  failuresBeforeLockout: number;
  firstLockoutMs: number;
  maxLockoutMs: number;
}

interface FailureRecord {
  failures: number;
  lockedUntil: number;
  lastFailureAt: number;
}

/**
 * Counts failed attempts per key (a client address) and locks the key out for a window that
 * doubles with every failure past the allowance, up to a maximum. Attempts refused during a
 * lockout are not failures, so a window is never lengthened by what it refuses; a quiet period as
 * long as the longest lockout forgets the key. Nothing else does: a success must not reset the
 * count of an address (an attacker's own valid token would reset its guessing).
 * In memory, the least recently failed keys forgotten beyond `maxKeys`.
 */
export class FailureThrottle {
  private readonly records = new Map<string, FailureRecord>();

  constructor(
    private readonly policy: LockoutPolicy,
    private readonly now: () => number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Whole seconds until the key may try again; 0 when it may now. */
  lockedForSeconds(key: string): number {
    const record = this.current(key);
    if (!record) return 0;
    const remaining = record.lockedUntil - this.now();
    return remaining > 0 ? Math.ceil(remaining / 1000) : 0;
  }

  fail(key: string): void {
    const now = this.now();
    const record = this.current(key) ?? { failures: 0, lockedUntil: 0, lastFailureAt: now };
    record.failures += 1;
    record.lastFailureAt = now;
    const past = record.failures - this.policy.failuresBeforeLockout;
    if (past >= 0) record.lockedUntil = now + Math.min(this.policy.maxLockoutMs, this.policy.firstLockoutMs * 2 ** past);
    this.records.delete(key);
    this.records.set(key, record);
    if (this.records.size > this.maxKeys) this.records.delete(this.records.keys().next().value!);
  }

  private current(key: string): FailureRecord | undefined {
    const record = this.records.get(key);
    if (record && this.now() - Math.max(record.lastFailureAt, record.lockedUntil) > this.policy.maxLockoutMs) {
      this.records.delete(key);
      return undefined;
    }
    return record;
  }
}

/** A request may go ahead, or must wait this many whole seconds (the Retry-After value). */
export type Admission = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * One token bucket per key, in memory: `burst` requests at once, refilled at `perSecond`. The
 * least recently used buckets are forgotten beyond `maxKeys` (a forgotten bucket starts full,
 * which only ever errs on the generous side).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
    private readonly maxKeys = 100_000,
  ) {}

  take(key: string): Admission {
    const now = this.now();
    const previous = this.buckets.get(key);
    const refilled = previous ? Math.min(this.burst, previous.tokens + ((now - previous.at) / 1000) * this.perSecond) : this.burst;
    // Re-inserted so that the map's order is least recently used first.
    this.buckets.delete(key);
    if (refilled >= 1) {
      this.remember(key, { tokens: refilled - 1, at: now });
      return { allowed: true };
    }
    this.remember(key, { tokens: refilled, at: now });
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - refilled) / this.perSecond)) };
  }

  private remember(key: string, bucket: Bucket): void {
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
  }
}

import { randomUUID } from 'node:crypto';
import { sleep } from '../stack';

/** What one logical request finally got, after the retries a careful partner makes. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  attempts: number;
  /** Attempts that got no answer or a 5xx: the outages the request rode through. */
  failedAttempts: number;
}

/**
 * A partner platform's HTTP client: every POST carries an Idempotency-Key, and an attempt
 * that gets no answer, a 5xx, a 429 or "operation in progress" is repeated with the same key
 * until the service gives a definitive answer or the deadline passes (then `status` is 0).
 */
export class PartnerClient {
  constructor(
    private readonly baseUrl: string,
    private readonly authorization: string,
    private readonly deadlineMs = 10 * 60_000,
  ) {}

  async call(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, idempotencyKey: string = randomUUID()): Promise<Answer> {
    const deadline = Date.now() + this.deadlineMs;
    let attempts = 0;
    let failedAttempts = 0;
    for (let backoff = 250; ; backoff = Math.min(backoff * 2, 5_000)) {
      attempts++;
      try {
        const res = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers: {
            authorization: this.authorization,
            ...(method === 'GET' ? {} : { 'idempotency-key': idempotencyKey }),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        if (!isRetryable(res.status, parsed)) return { status: res.status, body: parsed, attempts, failedAttempts };
      } catch {
        // No answer (connection refused or reset, time-out): the outcome is unknown, so ask again.
      }
      failedAttempts++;
      if (Date.now() + backoff > deadline) return { status: 0, body: {}, attempts, failedAttempts };
      await sleep(backoff);
    }
  }
}

function isRetryable(status: number, body: Record<string, unknown>): boolean {
  return status >= 500 || status === 429 || (status === 409 && body.code === 'OPERATION_IN_PROGRESS');
}

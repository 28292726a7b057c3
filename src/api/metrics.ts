import { Counter, Histogram, Registry } from 'prom-client';
import { createDbMetrics, type DbMetrics } from '../observability/db-metrics';

/** The API's Prometheus metrics, in a registry of their own (one per app, so tests never share counts). */
export interface ApiMetrics {
  registry: Registry;
  /** Per route template, method and status; its `_count` is the request rate. */
  requestDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** Requests answered from a stored Idempotency-Key response instead of running again. */
  idempotencyReplays: Counter<'route'>;
  /** What the API sends to PostgreSQL (its ORM counts into these). */
  db: DbMetrics;
}

export function createApiMetrics(registry = new Registry()): ApiMetrics {
  return {
    registry,
    requestDuration: new Histogram({
      name: 'payments_http_request_duration_seconds',
      help: 'HTTP requests by route template, method and status code, and how long they took',
      labelNames: ['method', 'route', 'status_code'],
      // Long-polling answers (an update waiting for its workflow) reach seconds; 15 s is the idempotency wait.
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers: [registry],
    }),
    idempotencyReplays: new Counter({
      name: 'payments_idempotency_replays_total',
      help: 'Requests answered with the stored response of an earlier request with the same Idempotency-Key',
      labelNames: ['route'],
      registers: [registry],
    }),
    db: createDbMetrics(registry),
  };
}

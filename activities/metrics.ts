import { Counter, Registry } from 'prom-client';
import { createDbMetrics, type DbMetrics } from '../src/observability/db-metrics';
import type { FinishedPayment } from '../src/contexts/payments/domain/payment-outcome';
import type { DeliveryOutcome } from '../src/contexts/webhooks/domain/webhook-retry';

/**
 * The worker's own Prometheus counters, in a registry of their own (the Temporal SDK serves its
 * runtime metrics separately). Activities count an outcome only once it is committed, and only
 * in the call that made it, so activity retries never count twice.
 */
export interface WorkerMetrics {
  registry: Registry;
  /** Payments that reached an end state, by direction and outcome. */
  paymentsFinished: Counter<'direction' | 'outcome'>;
  /** Every POST to a receiver (first attempts and retries), by how it went; `paused`: one its endpoint's breaker held back. */
  webhookAttempts: Counter<'outcome'>;
  /** Events that reached a final state: delivered (accepted or already had) or failed (retries exhausted). */
  webhookDeliveries: Counter<'outcome'>;
  /** What the worker sends to PostgreSQL (its ORM counts into these). */
  db: DbMetrics;
}

export function createWorkerMetrics(registry = new Registry()): WorkerMetrics {
  return {
    registry,
    paymentsFinished: new Counter({
      name: 'payments_finished_total',
      help: 'Payments that reached an end state, by direction (incoming, outgoing) and outcome (completed, failed, returned)',
      labelNames: ['direction', 'outcome'],
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'payments_webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome (delivered, duplicate, rejected, unreachable, no_endpoint; paused: held back by the endpoint breaker, not posted)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'payments_webhook_deliveries_total',
      help: 'Webhook events that reached a final state, by outcome (delivered, failed)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    db: createDbMetrics(registry),
  };
}

export function countFinishedPayment(metrics: WorkerMetrics | undefined, finished: FinishedPayment | undefined): void {
  if (finished) metrics?.paymentsFinished.inc({ direction: finished.type.toLowerCase(), outcome: finished.outcome.toLowerCase() });
}

export function countWebhookAttempt(metrics: WorkerMetrics | undefined, outcome: DeliveryOutcome): void {
  metrics?.webhookAttempts.inc({ outcome: outcome.kind.toLowerCase() });
}

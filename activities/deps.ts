import type { MikroORM } from '@mikro-orm/postgresql';
import type { WorkerMetrics } from './metrics';
import type { ExecutionGate } from '../src/domain/execution-gate-contract';
import type { BreakerSettings } from '../src/contexts/webhooks/domain/delivery-breaker';

/** What a webhook POST came back with; `null` status means no HTTP answer (network error, time-out). */
export interface WebhookHttpResult {
  status: number | null;
  body: string;
  error?: string;
}

export interface WebhookSender {
  /**
   * `environment` picks the destination rules (the sandbox may allow loopback receivers); production when absent.
   * `responseCap`: how much of the answer's body is read (the sender's small default unless the caller reads the answer).
   */
  post(
    url: string,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
    environment?: 'SANDBOX' | 'PRODUCTION',
    responseCap?: number,
  ): Promise<WebhookHttpResult>;
}

export interface ActivityDeps {
  orm: MikroORM;
  masterKey: Buffer;
  webhookSender: WebhookSender;
  webhookTimeoutMs?: number;
  /** How long the approval call of an incoming payment waits for the platform's answer (5 s unless a test says otherwise). */
  approvalCallTimeoutMs?: number;
  /** Outcome counters for Prometheus; nothing is counted without them. */
  metrics?: WorkerMetrics;
  /** The gates quote executions pass; the registered list (src/contexts/execution-gates.ts) unless a test adds its own. */
  executionGates?: readonly ExecutionGate[];
  /** When a failing webhook endpoint is paused and for how long (delivery-breaker.ts's settings unless a test shortens them). */
  webhookBreaker?: BreakerSettings;
  /** How long a quote's next SCA challenge lives (the sca context's default unless a test shortens it). */
  scaChallengeTtlMs?: number;
}

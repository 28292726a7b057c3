import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { freePorts } from '../../../src/dev/ports';
import type { ProofStack } from '../proof-stack';
import { sleep } from '../stack';
import { PartnerClient } from './client';
import type { Check } from './verdict';
import { setUp, type Customer } from './workload';

/**
 * The webhook-flood check: a payout's latency (execute sent → the transaction read COMPLETED) with the service
 * quiet, then again while thousands of webhook events of a second platform are retried against its receiver,
 * which is down (nothing listens on its port). Webhook deliveries run on their own task queue, so the flood must
 * leave the payouts' latency within FLOOD_LIMIT of its quiet value (median against median).
 */

export const FLOOD_LIMIT = 1.5;
/** Customers the flooding platform creates at once (each request makes its webhook events). */
const FLOOD_CONCURRENCY = 16;

export interface FloodOptions {
  /** Customers the flooding platform creates: each makes webhook events that can never be delivered. */
  customers: number;
  /** Payouts timed quiet, and as many flooded. */
  samples: number;
  say: (m: string) => void;
}

export interface FloodResult {
  check: Check;
  quiet: Latencies;
  flooded: Latencies;
  /** Failed delivery attempts the workers counted while the flooded samples ran, and over how many seconds. */
  failedAttempts: number;
  seconds: number;
  events: number;
}

interface Latencies {
  median: number;
  p90: number;
}

export async function webhookFlood(stack: ProofStack, client: PartnerClient, options: FloodOptions): Promise<FloodResult> {
  const { say } = options;
  const [customer] = await setUp(client, 1, 100_000_000);
  say(`webhook flood: timing ${options.samples} payouts with the service quiet`);
  const quiet = await payoutLatencies(client, customer!, options.samples);

  const [closedPort] = await freePorts(1);
  const flooding = await stack.sandboxPartner('flood', `http://127.0.0.1:${closedPort}/webhooks`);
  const failedBefore = await failedAttempts(stack);
  say(`webhook flood: a second platform creates ${options.customers} customers, whose webhook events go to a receiver that is down`);
  await createCustomers(new PartnerClient(stack.baseUrl, flooding.authorization), options.customers);
  const events = await eventsOf(stack.databaseUrl, flooding.platformId);
  // Every event's first attempt has failed by then, and the first retries (30 s later) are under way.
  for (const deadline = Date.now() + 5 * 60_000; (await failedAttempts(stack)) - failedBefore < events; await sleep(1_000)) {
    if (Date.now() > deadline) throw new Error(`the flood never reached ${events} failed delivery attempts`);
  }
  const failedAtStart = await failedAttempts(stack);
  const startedAt = Date.now();
  say(`webhook flood: ${events} events, ${failedAtStart - failedBefore} failed delivery attempts so far; timing ${options.samples} payouts under the flood`);
  const flooded = await payoutLatencies(client, customer!, options.samples);
  const seconds = (Date.now() - startedAt) / 1000;
  const failed = (await failedAttempts(stack)) - failedAtStart;
  const ratio = flooded.median / quiet.median;
  return {
    quiet,
    flooded,
    failedAttempts: failed,
    seconds,
    events,
    check: {
      name: 'payouts unhurt by a webhook flood',
      ok: ratio <= FLOOD_LIMIT,
      detail: `payout execute → COMPLETED, median/p90 of ${options.samples}: quiet ${quiet.median}/${quiet.p90} ms, flooded ${flooded.median}/${flooded.p90} ms (×${ratio.toFixed(2)} of quiet, limit ×${FLOOD_LIMIT}); flood: ${events} events to a receiver that is down, ${failed} failed attempts (${(failed / seconds).toFixed(0)}/s) while timed`,
    },
  };
}

/** Delivery attempts that did not deliver, over every worker. */
async function failedAttempts(stack: ProofStack): Promise<number> {
  let sum = 0;
  for (const worker of stack.workerProcesses)
    sum += (await stack.counter(worker, 'payments_webhook_attempts_total', { outcome: /^(?!delivered$|duplicate$)/ })) ?? 0;
  return sum;
}

async function createCustomers(client: PartnerClient, count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: FLOOD_CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        const answer = await client.call('POST', '/customers', {
          customerType: 'INDIVIDUAL',
          platformCustomerId: `flood-${i}-${randomUUID()}`,
          fullName: 'Flood Customer',
        });
        if (answer.status !== 201) throw new Error(`flood customer: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }),
  );
}

async function eventsOf(databaseUrl: string, platformId: string): Promise<number> {
  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ n: string }>('select count(*)::text as n from webhook_events where platform_id = $1', [platformId]);
    return Number(rows[0]!.n);
  } finally {
    await pg.end();
  }
}

/** Payouts one after another, each timed from its execute until the transaction reads COMPLETED. */
async function payoutLatencies(client: PartnerClient, customer: Customer, samples: number): Promise<Latencies> {
  const latencies: number[] = [];
  for (let i = 0; i < samples; i++) {
    const quote = await client.call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: customer.usd },
      destination: { destinationType: 'ACCOUNT', accountId: customer.banks['999'] },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000 + i,
      description: 'webhook flood check',
    });
    if (quote.status !== 201) throw new Error(`quote: ${quote.status} ${JSON.stringify(quote.body)}`);
    const transactionId = String(quote.body.transactionId);
    const sentAt = Date.now();
    const execute = await client.call('POST', `/quotes/${String(quote.body.id)}/execute`);
    if (execute.status !== 200) throw new Error(`execute: ${execute.status} ${JSON.stringify(execute.body)}`);
    for (;;) {
      const transaction = await client.call('GET', `/transactions/${transactionId}`);
      if (transaction.body.status === 'COMPLETED') break;
      if (transaction.body.status === 'FAILED' || Date.now() - sentAt > 120_000)
        throw new Error(`payout ${transactionId}: ${JSON.stringify(transaction.body)}`);
      await sleep(50);
    }
    latencies.push(Date.now() - sentAt);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p90: at(0.9) };
}

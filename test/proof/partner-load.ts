import { randomUUID } from 'node:crypto';
import { eventually } from '../support/eventually';

/**
 * A partner platform's client and a payout load as one sends it, for the proofs and drills that break the
 * production topology under traffic (a replica killed, an engine node lost, a deploy, a database failover) and
 * count what the partner saw.
 */

/** Answers a partner sends again, with the same Idempotency-Key, after a short wait. */
const RETRIED_STATUSES = [502, 503, 504];

/**
 * Every POST carries an Idempotency-Key and is sent again with the same key after 0.5 s when it got no answer,
 * 502 or 504 (HAProxy: the replica it was sent to died), 503 (HAProxy with no replica ready, or the API's own
 * SERVICE_UNAVAILABLE with Retry-After: 1 when Temporal or PostgreSQL did not answer in time) or 409
 * OPERATION_IN_PROGRESS (the same key still held by a request of a replica that died, until its claim lapses).
 * Retries are counted by cause; an answer with another status than expected counts as failed.
 */
export class PartnerClient {
  requests = 0;
  readonly retries: Record<string, number> = {};
  readonly failed: string[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly authorization: string,
    private readonly giveUpAfterMs = 180_000,
  ) {}

  static basic(baseUrl: string, creds: { tokenId: string; clientSecret: string }): PartnerClient {
    return new PartnerClient(baseUrl, `Basic ${Buffer.from(`${creds.tokenId}:${creds.clientSecret}`).toString('base64')}`);
  }

  get retried(): number {
    return Object.values(this.retries).reduce((a, b) => a + b, 0);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> {
    const key = randomUUID();
    const deadline = Date.now() + this.giveUpAfterMs;
    for (;;) {
      this.requests++;
      let outcome: string;
      try {
        const res = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers: {
            authorization: this.authorization,
            ...(method === 'POST' ? { 'idempotency-key': key, 'content-type': 'application/json' } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        // HAProxy's own pages are HTML; the API answers JSON.
        const parsed = (res.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : {}) as Record<string, unknown>;
        const inProgress = res.status === 409 && parsed.code === 'OPERATION_IN_PROGRESS';
        if (!RETRIED_STATUSES.includes(res.status) && !inProgress) return { status: res.status, body: parsed };
        outcome = `${res.status} ${typeof parsed.code === 'string' ? parsed.code : '(HAProxy)'}`;
      } catch {
        outcome = 'no answer';
      }
      this.retries[outcome] = (this.retries[outcome] ?? 0) + 1;
      if (Date.now() > deadline) return { status: 0, body: { outcome } };
      await new Promise((r) => setTimeout(r, 500)); // the partner's wait before sending again
    }
  }

  /** The body of a final answer; one with another status than `expected` is counted as failed. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
  async send(method: string, path: string, body?: unknown, expected = [200, 201]): Promise<Record<string, any>> {
    const answer = await this.call(method, path, body);
    if (!expected.includes(answer.status)) this.failed.push(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    return answer.body;
  }
}

/** A customer with a funded USD account and a EUR bank account to pay out to. */
export interface Payer {
  customerId: string;
  usdAccountId: string;
  bankAccountId: string;
}

export async function preparePayer(partner: PartnerClient, platformCustomerId: string, fundMinor = 1_000_000): Promise<Payer> {
  const customer = await partner.send('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId, fullName: 'Grace Hopper' });
  const accounts = await partner.send('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&currency=USD`);
  const usdAccountId = accounts.data[0].id as string;
  await partner.send('POST', `/sandbox/internal-accounts/${usdAccountId}/fund`, { amount: fundMinor });
  const bank = await partner.send('POST', '/customers/external-accounts', {
    customerId: customer.id,
    currency: 'EUR',
    accountInfo: {
      accountType: 'EUR_ACCOUNT',
      iban: 'DE89370400440532013000',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Grace Hopper', countryOfResidence: 'DE' },
    },
  });
  return { customerId: customer.id as string, usdAccountId, bankAccountId: bank.id as string };
}

/**
 * `count` payouts (quote, then execute), `inFlight` at a time, each of a distinct amount (1,000 + its index, in
 * cents) so that a payout made twice would show in the ledger's totals.
 */
export class PayoutLoad {
  readonly transactionIds: string[] = [];
  readonly startedAt = Date.now();
  /** Resolves when every payout has been executed (or given up on, which counts in partner.failed). */
  readonly sent: Promise<void>;

  constructor(
    private readonly partner: PartnerClient,
    private readonly payer: Payer,
    readonly count: number,
    readonly inFlight: number,
    /** A rail of the bank account (SEPA_INSTANT: quotes live 2 minutes, not SEPA's 15); its first rail by default. */
    paymentRail?: string,
  ) {
    let next = 0;
    const payOut = async () => {
      for (let i = next++; i < count; i = next++) {
        const quote = await partner.send('POST', '/quotes', {
          source: { sourceType: 'ACCOUNT', accountId: payer.usdAccountId },
          destination: { destinationType: 'ACCOUNT', accountId: payer.bankAccountId, ...(paymentRail ? { paymentRail } : {}) },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 1_000 + i,
        });
        if (!quote.id) continue;
        await partner.send('POST', `/quotes/${quote.id}/execute`);
        this.transactionIds.push(quote.transactionId as string);
      }
    };
    this.sent = Promise.all(Array.from({ length: inFlight }, payOut)).then(() => undefined);
  }

  /** Resolves once `n` payouts have been executed. */
  async executed(n: number, timeoutMs = 300_000): Promise<void> {
    await eventually(
      async () => this.transactionIds.length,
      (done) => done >= n,
      timeoutMs,
    );
  }

  /** Waits until every executed payout is final; returns each one's status and the time from the load's start. */
  async settled(timeoutMs = 300_000): Promise<{ states: Map<string, string>; elapsedMs: number }> {
    await this.sent;
    const states = new Map<string, string>();
    const final = (status: string | undefined) => status === 'COMPLETED' || status === 'FAILED';
    await eventually(
      async () => {
        for (const id of this.transactionIds)
          if (!final(states.get(id))) states.set(id, (await this.partner.send('GET', `/transactions/${id}`)).status as string);
        return [...states.values()];
      },
      (all) => all.every(final),
      timeoutMs,
    );
    return { states, elapsedMs: Date.now() - this.startedAt };
  }
}

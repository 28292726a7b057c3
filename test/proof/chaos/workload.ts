import { randomUUID } from 'node:crypto';
import type { Random } from '../random';
import type { Answer, PartnerClient } from './client';
import { nextStablecoinOperation, performStablecoin, type Issuer, type StablecoinOperation, type StablecoinOutcome } from './stablecoin-workload';

/**
 * The campaign's work, as a partner platform does it over REST: sandbox fundings, and quotes
 * executed to internal accounts (a USD → EUR conversion) and to external EUR bank accounts
 * whose sandbox scenario decides the payout's fate (completed, failed and refunded, returned
 * after 30 s, or completed after 6 minutes in long campaigns); and the issuer's stablecoin mints
 * and burns (stablecoin-workload.ts).
 */

/** Sandbox payout scenarios by the IBAN's last three digits (see payout-scenarios.ts). */
export const PAYOUT_SCENARIOS = {
  '999': { status: 'COMPLETED', failureReason: undefined },
  '004': { status: 'FAILED', failureReason: 'COUNTERPARTY_POST_TX_FAILED' },
  '005': { status: 'FAILED', failureReason: 'PAYOUT_RETURNED' },
  '003': { status: 'COMPLETED', failureReason: undefined },
} as const;
export type PayoutSuffix = keyof typeof PAYOUT_SCENARIOS;

export interface Customer {
  customerId: string;
  usd: string;
  eur: string;
  banks: Record<PayoutSuffix, string>;
}

export type Operation =
  | { kind: 'fund'; accountId: string; amount: number }
  | { kind: 'payout'; customer: Customer; suffix: PayoutSuffix; amount: number }
  | { kind: 'convert'; customer: Customer; amount: number }
  | StablecoinOperation;

export interface Outcome {
  operation: Operation;
  /** The funding answer, or the quote's creation. */
  first: Answer;
  /** The quote's execution, when the quote was created. */
  execute?: Answer;
  /** When the execute was first sent and when it was finally answered (ms since the epoch). */
  executeSentAt?: number;
  executeAnsweredAt?: number;
  transactionId?: string;
  /** A mint's or burn's key and timing. */
  stablecoin?: StablecoinOutcome;
}

/** An IBAN with correct check digits (ISO 13616 mod-97) for a German BBAN. */
function germanIban(bban: string): string {
  const digits = `${bban}DE00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  return `DE${String(98 - remainder).padStart(2, '0')}${bban}`;
}

async function expectStatus(answer: Answer, what: string, ...statuses: number[]): Promise<Record<string, unknown>> {
  if (!statuses.includes(answer.status)) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Customers with USD and EUR accounts, the USD one funded, and a bank account per scenario. */
export async function setUp(client: PartnerClient, count: number, initialFunding: number): Promise<Customer[]> {
  const customers: Customer[] = [];
  for (let i = 0; i < count; i++) {
    const customer = await expectStatus(
      await client.call('POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `chaos-${i}-${randomUUID()}`, fullName: 'Chaos Customer' }),
      'create customer',
      201,
    );
    const customerId = String(customer.id);
    const list = await expectStatus(
      await client.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`),
      'list accounts',
      200,
    );
    const accounts = list.data as { id: string; balance: { currency: { code: string } } }[];
    const usd = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
    const eur = accounts.find((a) => a.balance.currency.code === 'EUR')!.id;
    await expectStatus(await client.call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: initialFunding }), 'initial funding', 200);
    const banks = {} as Record<PayoutSuffix, string>;
    for (const suffix of Object.keys(PAYOUT_SCENARIOS) as PayoutSuffix[]) {
      const iban = germanIban(`370400440532${String(i).padStart(3, '0')}${suffix}`);
      const bank = await expectStatus(
        await client.call('POST', '/customers/external-accounts', {
          customerId,
          currency: 'EUR',
          accountInfo: {
            accountType: 'EUR_ACCOUNT',
            iban,
            beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Chaos Customer', countryOfResidence: 'DE' },
          },
        }),
        'create bank account',
        201,
      );
      banks[suffix] = String(bank.id);
    }
    customers.push({ customerId, usd, eur, banks });
  }
  return customers;
}

/** The next operation: mostly payouts and fundings, some conversions, mints and burns; the 6-minute payout only in long runs. */
export function nextOperation(random: Random, customers: Customer[], sequence: number, slowPayouts: boolean): Operation {
  const customer = random.pick(customers);
  const kind = random.weighted([
    ['fund', 3],
    ['payout', 5],
    ['convert', 2],
    ['mint', 2],
    ['burn', 1],
  ] as const);
  if (kind === 'mint' || kind === 'burn') return nextStablecoinOperation(random, kind, sequence);
  if (kind === 'fund') {
    // Unique amounts, so that each answered funding can be matched with exactly one transaction.
    return { kind, accountId: customer.usd, amount: 20_000 + sequence };
  }
  if (kind === 'convert') return { kind, customer, amount: random.int(1_000, 5_000) };
  const suffix = random.weighted<PayoutSuffix>([
    ['999', 6],
    ['004', 2],
    ['005', 2],
    ['003', slowPayouts ? 1 : 0],
  ]);
  return { kind, customer, suffix, amount: random.int(1_000, 5_000) };
}

const quoteRequest = (source: string, destination: string, amount: number) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  description: 'chaos campaign',
});

/** Runs one operation to its definitive answers (the client retries through outages). */
export async function perform(client: PartnerClient, issuer: Issuer, operation: Operation): Promise<Outcome> {
  if (operation.kind === 'mint' || operation.kind === 'burn') {
    const { first, ...stablecoin } = await performStablecoin(client, issuer, operation);
    return { operation, first, stablecoin };
  }
  if (operation.kind === 'fund') {
    return { operation, first: await client.call('POST', `/sandbox/internal-accounts/${operation.accountId}/fund`, { amount: operation.amount }) };
  }
  const destination = operation.kind === 'payout' ? operation.customer.banks[operation.suffix] : operation.customer.eur;
  const first = await client.call('POST', '/quotes', quoteRequest(operation.customer.usd, destination, operation.amount));
  if (first.status !== 201) return { operation, first };
  const transactionId = String(first.body.transactionId);
  const executeSentAt = Date.now();
  const execute = await client.call('POST', `/quotes/${String(first.body.id)}/execute`);
  return { operation, first, execute, executeSentAt, executeAnsweredAt: Date.now(), transactionId };
}

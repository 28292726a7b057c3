import { randomUUID } from 'node:crypto';
import { usdAccount } from '../../support/external-account-fixtures';
import type { Random } from '../random';
import { sleep } from '../stack';
import type { Answer, PartnerClient } from './client';

/**
 * The campaign's stablecoin work, as an issuing platform does it over REST: one provider link,
 * one token (PROVISIONED before the campaign begins), and mints funded from the provider balance
 * to a Spark wallet and burns from the provider balance to a US bank account.
 */

/** Tokens have 6 decimals: a cent is 10,000 units. */
const UNITS_PER_CENT = 10_000n;
const SPARK_ADDRESS = 'sparkrt1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9uc8pt5y4';

/** Sandbox order scenarios by the order's value in cents (see sandbox-provider.ts). */
export const STABLECOIN_SCENARIOS = {
  completes: { cents: undefined, answer: 201, status: 'COMPLETED', failureReason: undefined },
  refused: { cents: 1313, answer: 400, status: 'FAILED', failureReason: 'PROVIDER_REJECTED' },
  transferFails: { cents: 1414, answer: 201, status: 'FAILED', failureReason: 'PROVIDER_TRANSFER_FAILED' },
} as const;
export type StablecoinScenario = keyof typeof STABLECOIN_SCENARIOS;

export interface Issuer {
  stablecoinId: string;
  wallet: string;
  bank: string;
}

/** A mint or a burn worth `cents` (one member each, so that checks on `kind` narrow the campaign's operations). */
export type StablecoinOperation = { kind: 'mint'; cents: number; scenario: StablecoinScenario } | { kind: 'burn'; cents: number; scenario: StablecoinScenario };

/** What a mint or burn request finally got, with the key it was sent under and when. */
export interface StablecoinOutcome {
  idempotencyKey: string;
  /** When the request was first sent and when it was finally answered (ms since the epoch). */
  sentAt: number;
  answeredAt: number;
}

async function expectStatus(answer: Answer, what: string, ...statuses: number[]): Promise<Record<string, unknown>> {
  if (!statuses.includes(answer.status)) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`set-up: ${what} did not happen within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

/** A provider link, a PROVISIONED token, a Spark wallet for mints and a validated bank account for burns. */
export async function setUpIssuer(client: PartnerClient): Promise<Issuer> {
  await expectStatus(
    await client.call('POST', '/stablecoin-provider-accounts', {
      provider: 'BRALE',
      apiClientId: `chaos-${randomUUID().slice(0, 8)}`,
      apiClientSecret: 'sk_sandbox_chaos',
    }),
    'link provider account',
    201,
  );
  const wallet = String(
    (
      await expectStatus(
        await client.call('POST', '/platform/external-accounts', { currency: 'USDB', accountInfo: { accountType: 'SPARK_WALLET', address: SPARK_ADDRESS } }),
        'create spark wallet',
        201,
      )
    ).id,
  );
  const bank = String((await expectStatus(await client.call('POST', '/platform/external-accounts', usdAccount('123456789')), 'create bank account', 201)).id);
  const coin = await expectStatus(
    await client.call('POST', '/stablecoins', { providerTokenIdentifier: 'CHAOS', networkTokenIdentifier: 'btkn1chaos', network: 'SPARK' }),
    'register stablecoin',
    201,
  );
  const stablecoinId = String(coin.id);
  await until('the stablecoin PROVISIONED', async () => (await client.call('GET', `/stablecoins/${stablecoinId}`)).body.issuanceStatus === 'PROVISIONED');
  // The sandbox validates a US bank account ten seconds after it is registered; burns need it ACTIVE.
  await until('the bank account ACTIVE', async () => (await client.call('GET', `/platform/external-accounts/${bank}`)).body.status === 'ACTIVE');
  return { stablecoinId, wallet, bank };
}

/**
 * The next mint or burn: mostly orders that complete, with unique values (so that each can be
 * told apart in the ledger), some the provider fails after accepting them, and some mints it
 * refuses outright. Mints come twice as often; burns ask a little more than mints bring on
 * average, so that the supply stays short and burns race for the last of it.
 */
export function nextStablecoinOperation(random: Random, kind: 'mint' | 'burn', sequence: number): StablecoinOperation {
  const scenario = random.weighted<StablecoinScenario>([
    ['completes', 8],
    ['transferFails', 1],
    ['refused', kind === 'mint' ? 1 : 0],
  ]);
  const fixed = STABLECOIN_SCENARIOS[scenario].cents;
  return { kind, scenario, cents: fixed ?? 100_000 * random.int(1, kind === 'mint' ? 20 : 45) + sequence };
}

/** Sends one mint or burn under a key of its own (the client retries with it through outages). */
export async function performStablecoin(client: PartnerClient, issuer: Issuer, operation: StablecoinOperation): Promise<{ first: Answer } & StablecoinOutcome> {
  const amount = (BigInt(operation.cents) * UNITS_PER_CENT).toString();
  const body =
    operation.kind === 'mint'
      ? {
          amount,
          fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'SOLANA' },
          destination: { accountId: issuer.wallet },
          description: 'chaos campaign',
        }
      : {
          amount,
          source: { type: 'PROVIDER_INTERNAL_BALANCE' },
          destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: issuer.bank, rail: 'RTP_CREDIT' },
          description: 'chaos campaign',
        };
  const idempotencyKey = randomUUID();
  const sentAt = Date.now();
  const first = await client.call('POST', `/stablecoins/${issuer.stablecoinId}/${operation.kind}s`, body, idempotencyKey);
  return { first, idempotencyKey, sentAt, answeredAt: Date.now() };
}

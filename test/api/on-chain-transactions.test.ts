import { decodeBase58 } from '../../src/domain/identifiers/base58';
import { Transaction } from '../../src/contexts/payments/entities';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';

/**
 * Crypto legs show their chain (issue 36, item 7): a payout to an external wallet carries
 * `destination.onChainTransaction`, and funds sent on a chain carry `source.onChainTransaction`
 * (with the source's `cryptoNetwork`), once the transfer settled — in GET, the list and the
 * webhooks alike, stored with the settlement and the same on every read.
 */

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SOLANA_SIGNATURE = expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/);
const isSolanaSignature = (hash: string) => decodeBase58(hash)?.length === 64;

async function customer(api: Api, fundUsd = 0) {
  const created = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `oc-${Math.random()}`, fullName: 'Jane Doe' });
  const customerId = created.body.id as string;
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`);
  const usd = accounts.body.data[0].id as string;
  if (fundUsd > 0) expect((await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: fundUsd })).status).toBe(200);
  return { customerId, usd };
}

const transactionOf = (api: Api, id: string): Promise<Json> => api.get(`/transactions/${id}`).then((r) => r.body);
const listed = async (api: Api, customerId: string, id: string): Promise<Json> =>
  (await api.get(`/transactions?customerId=${encodeURIComponent(customerId)}`)).body.data.find((t: Json) => t.id === id);
const webhookOf = (transactionId: string, type: string): Json | undefined =>
  h.receiver.received.find((w) => w.body.type === type && w.body.data?.id === transactionId)?.body.data;

describe('onChainTransaction', () => {
  test('a USD→USDC payout to a Solana wallet: destination.onChainTransaction once COMPLETED, a Solana signature, the same everywhere', async () => {
    const { api } = await h.platform();
    const c = await customer(api, 100_000);
    const wallet = await api.post('/customers/external-accounts', {
      customerId: c.customerId,
      currency: 'USDC',
      accountInfo: { accountType: 'SOLANA_WALLET', address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T' },
    });
    expect(wallet.status).toBe(201);
    const quote = await api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: c.usd },
      destination: { destinationType: 'ACCOUNT', accountId: wallet.body.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    expect(quote.status).toBe(201);
    const transactionId = quote.body.transactionId as string;
    // Quoted, not settled: no hash yet.
    expect((await transactionOf(api, transactionId)).destination.onChainTransaction).toBeUndefined();
    expect((await api.post(`/quotes/${quote.body.id}/execute`)).status).toBe(200);

    const completed = await eventually(
      () => transactionOf(api, transactionId),
      (t) => t.status === 'COMPLETED',
    );
    const onChain = { transactionHash: SOLANA_SIGNATURE, network: 'SOLANA' };
    expect(completed.destination).toEqual({ destinationType: 'ACCOUNT', accountId: wallet.body.id, currency: 'USDC', onChainTransaction: onChain });
    expect(isSolanaSignature(completed.destination.onChainTransaction.transactionHash)).toBe(true);
    // Stored with the settlement: every read, the list and the webhook show the same hash.
    const stored = await h.orm.em.fork().findOneOrFail(Transaction, { id: transactionId });
    expect(stored.destination.onChainTransaction).toEqual(completed.destination.onChainTransaction);
    expect((await transactionOf(api, transactionId)).destination).toEqual(completed.destination);
    expect((await listed(api, c.customerId, transactionId)).destination).toEqual(completed.destination);
    await h.receiver.waitFor(() => !!webhookOf(transactionId, 'OUTGOING_PAYMENT.COMPLETED'));
    expect(webhookOf(transactionId, 'OUTGOING_PAYMENT.COMPLETED')!.destination).toEqual(completed.destination);
    // Announced before it settled: PROCESSING carries no hash.
    expect(webhookOf(transactionId, 'OUTGOING_PAYMENT.PROCESSING')!.destination.onChainTransaction).toBeUndefined();
  });

  test('a payout funded by USDC on Solana: source.cryptoNetwork always, source.onChainTransaction once the funds arrived', async () => {
    const { api } = await h.platform();
    const c = await customer(api);
    const bank = await api.post('/customers/external-accounts', { customerId: c.customerId, ...eurAccount(ibanOf('DE', '370400440532013999')) });
    expect(bank.status).toBe(201);
    const quote = await api.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USDC', cryptoNetwork: 'SOLANA', customerId: c.customerId },
      destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000_000,
    });
    expect(quote.status).toBe(201);
    const transactionId = quote.body.transactionId as string;
    // Waiting for the funds: the network they are to arrive on, no transfer yet.
    expect((await transactionOf(api, transactionId)).source).toEqual({ sourceType: 'REALTIME_FUNDING', currency: 'USDC', cryptoNetwork: 'SOLANA' });

    const sent = await api.post('/sandbox/send', { quoteId: quote.body.id, currencyCode: 'USDC' });
    expect(sent.status).toBe(200);
    const source = {
      sourceType: 'REALTIME_FUNDING',
      currency: 'USDC',
      cryptoNetwork: 'SOLANA',
      onChainTransaction: { transactionHash: SOLANA_SIGNATURE, network: 'SOLANA' },
    };
    expect(sent.body.source).toEqual(source);
    expect(isSolanaSignature(sent.body.source.onChainTransaction.transactionHash)).toBe(true);
    const completed = await eventually(
      () => transactionOf(api, transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect(completed.source).toEqual(sent.body.source);
    // A bank payout has no chain of its own.
    expect(completed.destination.onChainTransaction).toBeUndefined();
    expect((await listed(api, c.customerId, transactionId)).source).toEqual(sent.body.source);
    await h.receiver.waitFor(() => !!webhookOf(transactionId, 'OUTGOING_PAYMENT.COMPLETED'));
    expect(webhookOf(transactionId, 'OUTGOING_PAYMENT.PROCESSING')!.source).toEqual(sent.body.source);
    expect(webhookOf(transactionId, 'OUTGOING_PAYMENT.COMPLETED')!.source).toEqual(sent.body.source);
  });
});

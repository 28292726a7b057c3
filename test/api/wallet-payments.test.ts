import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { Quote, Transaction } from '../../src/contexts/payments/entities';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';

// Payments from an embedded wallet (spec §4.3, reference inventory §7.8): the quote carries the
// payload its owner signs; the execute call brings the stamp (executed at once) or is answered 202
// and held until the signed retry; every other way out of a wallet is refused.

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

/** A customer of a platform with embedded wallets: its USDB wallet, funded, and a EUR bank account. */
async function walletCustomer(api: Api, funded = 50_000_000) {
  const customer = await api.post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `w-${Math.random()}`,
    fullName: 'Jane Doe',
    email: 'jane@example.com',
  });
  const customerId = customer.body.id as string;
  const wallet = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&type=EMBEDDED_WALLET`)).body.data[0].id as string;
  if (funded > 0) expect((await api.post(`/sandbox/internal-accounts/${wallet}/fund`, { amount: funded })).status).toBe(200);
  const bank = await api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', '370400440532013999')) });
  expect(bank.status).toBe(201);
  return { customerId, wallet, bank: bank.body.id as string };
}

const walletQuote = (wallet: string, bank: string, amount = 20_000_000) => ({
  source: { sourceType: 'ACCOUNT', accountId: wallet },
  destination: { destinationType: 'ACCOUNT', accountId: bank },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
});

async function balanceOf(api: Api, accountId: string): Promise<number> {
  return (await api.get(`/customers/internal-accounts?limit=100&type=EMBEDDED_WALLET`)).body.data.find((a: { id: string }) => a.id === accountId).balance
    .amount;
}

describe('a quote paid from an embedded wallet', () => {
  test('carries an EMBEDDED_WALLET payment instruction whose payloadToSign binds the payment; the same bytes on every read; other sources carry none', async () => {
    const { api } = await h.platform({ embeddedWalletsSupported: true });
    const { wallet, bank } = await walletCustomer(api);
    const created = await api.post('/quotes', walletQuote(wallet, bank));
    expect(created.status).toBe(201);
    const q = created.body;
    expect(q.paymentInstructions).toEqual([
      expect.objectContaining({ accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign: expect.any(String) } }),
    ]);
    const payload = q.paymentInstructions[0].accountOrWalletInfo.payloadToSign as string;
    expect(JSON.parse(payload)).toEqual({
      organizationId: wallet,
      parameters: {
        quoteId: q.id,
        transactionId: q.transactionId,
        sendingCurrency: 'USDB',
        totalSendingAmount: String(q.totalSendingAmount),
        receivingCurrency: q.receivingCurrency.code,
        totalReceivingAmount: String(q.totalReceivingAmount),
        destination: bank,
      },
      timestampMs: String(Date.parse(q.createdAt)),
      type: 'ACTIVITY_TYPE_EXECUTE_QUOTE',
    });
    expect((await api.get(`/quotes/${q.id}`)).body.paymentInstructions[0].accountOrWalletInfo.payloadToSign).toBe(payload);
    // An ordinary internal account pays without a signature: no instruction.
    const usd = (await api.get(`/customers/internal-accounts?currency=USD&limit=100`)).body.data[0].id as string;
    await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 100_000 });
    expect((await api.post('/quotes', walletQuote(usd, bank, 10_000))).body.paymentInstructions).toBeUndefined();
  });
});

describe('other ways out of a wallet', () => {
  test('POST /transfer-out from an EMBEDDED_WALLET is 400 (source.accountId, embeddedWallet): nothing is recorded, nothing moves', async () => {
    const { api, platform } = await h.platform({ embeddedWalletsSupported: true });
    const { wallet, bank } = await walletCustomer(api);
    const quotesBefore = await h.orm.em.fork().count(Quote, { platformId: platform.id });
    const res = await api.post(
      '/transfer-out',
      { source: { accountId: wallet }, destination: { accountId: bank }, amount: 1_000 },
      { 'Idempotency-Key': 'out-1' },
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_INPUT' });
    expect(res.body.details.errors).toEqual([
      expect.objectContaining({ field: 'source.accountId', constraint: expect.objectContaining({ rule: 'embeddedWallet' }) }),
    ]);
    expect(await h.orm.em.fork().count(Quote, { platformId: platform.id })).toBe(quotesBefore);
    expect(await h.orm.em.fork().count(Transaction, { platformId: platform.id, type: 'OUTGOING' })).toBe(0);
    expect(await balanceOf(api, wallet)).toBe(50_000_000);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });
});

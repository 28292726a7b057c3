import { JournalEntry, LedgerAccount, Posting } from '../../src/contexts/ledger/entities';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { Quote, Transaction } from '../../src/contexts/payments/entities';
import { checkEvmAddress } from '../../src/domain/identifiers/evm-address';
import { checkSolanaAddress } from '../../src/domain/identifiers/solana-address';
import { checkTronAddress } from '../../src/domain/identifiers/tron-address';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

/** A customer with its USD internal account (funded with `fundUsd`) and a EUR bank account. */
async function customer(api: Api, fundUsd = 0, suffix = '999') {
  const created = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `qf-${Math.random()}`, fullName: 'Jane Doe' });
  const customerId = created.body.id as string;
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`);
  const usd = accounts.body.data[0].id as string;
  if (fundUsd > 0) expect((await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: fundUsd })).status).toBe(200);
  const bank = await api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', `370400440532013${suffix}`)) });
  expect(bank.status).toBe(201);
  return { customerId, usd, bank: bank.body.id as string };
}

const payout = (source: Record<string, unknown>, destination: string, amount = 10_000) => ({
  source,
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
});

const transactionOf = (api: Api, id: string) => api.get(`/transactions/${id}`).then((r) => r.body);

/** Every posting of the journal entries of a transaction, by account. */
async function postingsOf(transactionId: string) {
  const em = h.orm.em.fork();
  const entries = await em.find(JournalEntry, { transactionId });
  const postings = await em.find(Posting, { entryId: { $in: entries.map((e) => e.id) } }, { orderBy: { id: 'asc' } });
  return postings.map((p) => ({ accountId: p.accountId, amount: p.amount }));
}

const balanceOf = async (accountId: string) => {
  const l = await h.orm.em.fork().findOneOrFail(LedgerAccount, { id: accountId });
  return { balance: l.balance, held: l.held };
};

describe('cryptoNetwork on real-time funding quotes', () => {
  const instructionsOf = (q: { paymentInstructions: { accountOrWalletInfo: Record<string, unknown> }[] }) => q.paymentInstructions[0]!.accountOrWalletInfo;

  test('USDC on SOLANA: a Solana deposit address, the network stored and shown, and /sandbox/send pays it', async () => {
    const { api } = await h.platform();
    const c = await customer(api);
    const created = await api.post(
      '/quotes',
      payout({ sourceType: 'REALTIME_FUNDING', currency: 'USDC', cryptoNetwork: 'SOLANA', customerId: c.customerId }, c.bank, 10_000_000),
    );
    expect(created.status).toBe(201);
    const q = created.body;
    expect(q.source).toEqual({ sourceType: 'REALTIME_FUNDING', currency: 'USDC', cryptoNetwork: 'SOLANA', customerId: c.customerId });
    const info = instructionsOf(q);
    expect(info).toEqual({ accountType: 'SOLANA_WALLET', address: expect.any(String), assetType: 'USDC' });
    expect(checkSolanaAddress(String(info.address)).valid).toBe(true);
    expect((await api.get(`/quotes/${q.id}`)).body).toEqual(q);
    expect((await h.orm.em.fork().findOneOrFail(Quote, { id: q.id })).source.cryptoNetwork).toBe('SOLANA');

    const sent = await api.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USDC' });
    expect(sent.status).toBe(200);
    await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('a send retried after the payout completed answers what the first send answered (the payment as its funding left it)', async () => {
    const { api } = await h.platform();
    const c = await customer(api);
    const q = (
      await api.post(
        '/quotes',
        payout({ sourceType: 'REALTIME_FUNDING', currency: 'USDC', cryptoNetwork: 'SOLANA', customerId: c.customerId }, c.bank, 10_000_000),
      )
    ).body;
    const send = () => api.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USDC' }, { 'Idempotency-Key': `send-${q.id}` });
    const first = await send();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: q.transactionId, status: 'PROCESSING' });
    const completed = await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect(completed.updatedAt).not.toBe(first.body.updatedAt);
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
  });

  test('each network answers its own chain: EVM chains a 0x address, TRON a Tron address; two quotes never share one', async () => {
    const { api } = await h.platform();
    const c = await customer(api);
    const quote = async (currency: string, cryptoNetwork: string) => {
      const res = await api.post('/quotes', payout({ sourceType: 'REALTIME_FUNDING', currency, cryptoNetwork }, c.bank, 10_000_000));
      expect(res.status).toBe(201);
      return instructionsOf(res.body);
    };
    const base = await quote('USDC', 'BASE');
    expect(base).toEqual({ accountType: 'BASE_WALLET', address: expect.stringMatching(/^0x[0-9a-f]{40}$/), assetType: 'USDC' });
    expect(checkEvmAddress(String(base.address)).valid).toBe(true);
    expect(await quote('USDC', 'POLYGON')).toMatchObject({ accountType: 'POLYGON_WALLET', address: expect.stringMatching(/^0x[0-9a-f]{40}$/) });
    expect(await quote('USDT', 'ETHEREUM')).toMatchObject({ accountType: 'ETHEREUM_WALLET', assetType: 'USDT' });
    const tron = await quote('USDT', 'TRON');
    expect(tron).toMatchObject({ accountType: 'TRON_WALLET', assetType: 'USDT' });
    expect(checkTronAddress(String(tron.address)).valid).toBe(true);
    expect((await quote('USDC', 'BASE')).address).not.toBe(base.address);
  });

  test('an unknown network, a network that does not carry the currency, a missing network for a stablecoin and a network for fiat are 400 on source.cryptoNetwork; nothing is recorded', async () => {
    const { api, platform } = await h.platform();
    const c = await customer(api);
    const refusal = async (source: Record<string, unknown>) => {
      const res = await api.post('/quotes', payout({ sourceType: 'REALTIME_FUNDING', ...source }, c.bank, 10_000_000));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_INPUT');
      expect(res.body.details.errors).toHaveLength(1);
      expect(res.body.details.errors[0].field).toBe('source.cryptoNetwork');
      return res.body.details.errors[0].constraint;
    };
    expect(await refusal({ currency: 'USDC', cryptoNetwork: 'DOGECOIN' })).toMatchObject({
      rule: 'enum',
      enum: expect.arrayContaining(['SOLANA', 'BASE', 'TRON']),
    });
    expect(await refusal({ currency: 'USDC', cryptoNetwork: 'TRON' })).toEqual({
      rule: 'supportedForCurrency',
      enum: ['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON'],
    });
    expect(await refusal({ currency: 'USDC' })).toMatchObject({ rule: 'required' });
    expect(await refusal({ currency: 'USDT' })).toMatchObject({ rule: 'required' });
    expect(await refusal({ currency: 'USD', cryptoNetwork: 'SOLANA' })).toMatchObject({ rule: 'cryptoOnly' });
    expect(await h.orm.em.fork().count(Quote, { platformId: platform.id })).toBe(0);
  });

  test('fiat real-time funding is unchanged: bank coordinates, no network', async () => {
    const { api } = await h.platform();
    const c = await customer(api);
    const res = await api.post('/quotes', payout({ sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: c.customerId }, c.bank));
    expect(res.status).toBe(201);
    expect(res.body.source).toEqual({ sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: c.customerId });
    expect(instructionsOf(res.body)).toMatchObject({ accountType: 'USD_ACCOUNT', reference: expect.stringMatching(/^Q[0-9A-F]{11}$/) });
  });
});

describe("a platform internal account funds a quote on a customer's behalf (source.customerId)", () => {
  test("the quote and its payment are the customer's, the platform's account pays: balanced postings, clean audit", async () => {
    const { api } = await h.platform();
    const c = await customer(api);
    const platformUsd = ((await api.get('/platform/internal-accounts')).body.data as { id: string; balance: { currency: { code: string } } }[]).find(
      (a) => a.balance.currency.code === 'USD',
    )!.id;
    expect((await api.post(`/sandbox/internal-accounts/${platformUsd}/fund`, { amount: 50_000 })).status).toBe(200);
    const before = await balanceOf(platformUsd);

    const created = await api.post('/quotes', payout({ sourceType: 'ACCOUNT', accountId: platformUsd, customerId: c.customerId }, c.bank));
    expect(created.status).toBe(201);
    const q = created.body;
    expect(q.source).toEqual({ sourceType: 'ACCOUNT', accountId: platformUsd, customerId: c.customerId });
    expect((await h.orm.em.fork().findOneOrFail(Quote, { id: q.id })).customerId).toBe(c.customerId);
    expect((await api.post(`/quotes/${q.id}/execute`)).status).toBe(200);
    const done = await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect(done).toMatchObject({ customerId: c.customerId, source: { sourceType: 'ACCOUNT', accountId: platformUsd }, sentAmount: { amount: 10_000 } });

    // Every movement of the payment balances; the platform's account gave the whole sending
    // amount and got back only its own platform fee; the customer's own account was not touched.
    const postings = await postingsOf(q.transactionId);
    expect(postings.reduce((s, p) => s + p.amount, 0n)).toBe(0n);
    const platformNet = postings.filter((p) => p.accountId === platformUsd).reduce((s, p) => s + p.amount, 0n);
    expect(platformNet).toBe(-10_000n + BigInt(q.platformFeesIncluded));
    expect(postings.some((p) => p.accountId === c.usd)).toBe(false);
    expect(await balanceOf(platformUsd)).toEqual({ balance: before.balance + platformNet, held: 0n });
    expect(await balanceOf(c.usd)).toEqual({ balance: 0n, held: 0n });
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test("a customer's account cannot be spent on behalf of another customer; an unknown customer is USER_NOT_FOUND", async () => {
    const { api } = await h.platform();
    const owner = await customer(api, 20_000);
    const other = await customer(api, 0, '899');
    const refused = await api.post('/quotes', payout({ sourceType: 'ACCOUNT', accountId: owner.usd, customerId: other.customerId }, other.bank));
    expect(refused.status).toBe(400);
    expect(refused.body.details.errors).toEqual([expect.objectContaining({ field: 'source.customerId', constraint: { rule: 'accountOwner' } })]);
    const platformUsd = ((await api.get('/platform/internal-accounts')).body.data as { id: string; balance: { currency: { code: string } } }[]).find(
      (a) => a.balance.currency.code === 'USD',
    )!.id;
    const unknown = await api.post(
      '/quotes',
      payout({ sourceType: 'ACCOUNT', accountId: platformUsd, customerId: 'Customer:00000000-0000-4000-8000-000000000000' }, other.bank),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('USER_NOT_FOUND');
    // Another platform's customer is as unknown.
    const stranger = await customer((await h.platform()).api);
    expect((await api.post('/quotes', payout({ sourceType: 'ACCOUNT', accountId: platformUsd, customerId: stranger.customerId }, other.bank))).status).toBe(
      404,
    );
  });
});

describe('POST /sandbox/send is for real-time-funded quotes only', () => {
  test('an executed account-funded quote is refused 409 CONFLICT, as a pending one is, and no money moves', async () => {
    const { api } = await h.platform();
    const c = await customer(api, 50_000);
    const pending = (await api.post('/quotes', payout({ sourceType: 'ACCOUNT', accountId: c.usd }, c.bank))).body;
    const pendingSend = await api.post('/sandbox/send', { quoteId: pending.id, currencyCode: 'USD' });
    expect(pendingSend.status).toBe(409);
    expect(pendingSend.body.code).toBe('CONFLICT');

    const q = (await api.post('/quotes', payout({ sourceType: 'ACCOUNT', accountId: c.usd }, c.bank))).body;
    expect((await api.post(`/quotes/${q.id}/execute`)).status).toBe(200);
    await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    const before = {
      transaction: await transactionOf(api, q.transactionId),
      quote: (await api.get(`/quotes/${q.id}`)).body,
      postings: await postingsOf(q.transactionId),
      balance: await balanceOf(c.usd),
    };

    const sent = await api.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' });
    expect(sent.status).toBe(409);
    expect(sent.body).toMatchObject({ code: 'CONFLICT', message: pendingSend.body.message });
    expect(await transactionOf(api, q.transactionId)).toEqual(before.transaction);
    expect((await api.get(`/quotes/${q.id}`)).body).toEqual(before.quote);
    expect(await postingsOf(q.transactionId)).toEqual(before.postings);
    expect(await balanceOf(c.usd)).toEqual(before.balance);
    expect(await h.orm.em.fork().count(Transaction, { quoteId: q.id })).toBe(1);
  });
});

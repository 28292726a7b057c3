import { JournalEntry, LedgerAccount, Posting } from '../../src/contexts/ledger/entities';
import { Transaction } from '../../src/contexts/payments/entities';
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
    await eventually(() => transactionOf(api, q.transactionId), (t) => t.status === 'COMPLETED');
    const before = { transaction: await transactionOf(api, q.transactionId), quote: (await api.get(`/quotes/${q.id}`)).body, postings: await postingsOf(q.transactionId), balance: await balanceOf(c.usd) };

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

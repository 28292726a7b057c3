import request from 'supertest';
import { ExternalAccount } from '../../src/contexts/external-accounts/entities';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { AgentQuote } from '../../src/contexts/agents/entities';
import { Quote, Transaction } from '../../src/contexts/payments/entities';
import { expireQuote } from '../../src/contexts/payments/services/outgoing-payments';
import { eventually } from '../support/eventually';
import { usdAccount } from '../support/external-account-fixtures';
import { Api, BASE, Harness } from '../support/harness';

// A request answered with a refusal leaves nothing a partner can list: the quote a transfer (or an
// immediatelyExecute quote) made for itself is withdrawn with its transaction when the execution
// is refused, and the payment's workflow finds nothing to expire or announce at the quote's end.

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

/** A platform and a customer with `funds` in its USD account and a validated US bank account. */
async function funded(funds: number) {
  const p = await h.platform();
  const customer = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${Math.random()}`, fullName: 'Ada Payer' });
  const customerId = customer.body.id as string;
  const usd = (await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data[0].id as string;
  expect((await p.api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: funds })).status).toBe(200);
  const bank = await p.api.post('/customers/external-accounts', { customerId, ...usdAccount('123456999') });
  expect(bank.status).toBe(201);
  await h.orm.em.fork().nativeUpdate(ExternalAccount, { id: bank.body.id }, { bankValidation: 'PASSED' });
  return { ...p, customerId, usd, bank: bank.body.id as string };
}
type Funded = Awaited<ReturnType<typeof funded>>;

const balanceOf = async (p: Funded) =>
  (await p.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(p.customerId)}&currency=USD`)).body.data[0].balance.amount as number;

/** Every transaction GET /transactions lists for the platform (all pages). */
async function listed(p: Funded): Promise<{ id: string; status: string }[]> {
  const all: { id: string; status: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await p.api.get(`/transactions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.status).toBe(200);
    all.push(...page.body.data);
    cursor = page.body.hasMore ? page.body.nextCursor : undefined;
  } while (cursor);
  return all;
}

/** The payment webhooks about the account's outgoing payments, by transaction. */
function outgoingHooks(accountId: string): Map<string, string[]> {
  const byTransaction = new Map<string, string[]>();
  for (const w of h.receiver.received) {
    const source = (w.body.data as { source?: { accountId?: string } } | undefined)?.source;
    if (!String(w.body.type).startsWith('OUTGOING_PAYMENT.') || source?.accountId !== accountId) continue;
    byTransaction.set(String(w.body.data.id), [...(byTransaction.get(String(w.body.data.id)) ?? []), String(w.body.type)]);
  }
  return byTransaction;
}

/** After the answers: the paid ones are the only transactions listed (with the funding), they complete, the rest left nothing; ledger clean. */
async function onlyPaidRemain(p: Funded, paidIds: string[], funds: number, each: number) {
  const outgoing = (await listed(p)).filter((t) => (t as { type?: string }).type === 'OUTGOING');
  expect(outgoing.map((t) => t.id).sort()).toEqual([...paidIds].sort());
  for (const id of paidIds)
    await eventually(
      () => p.api.get(`/transactions/${id}`).then((r) => r.body),
      (t) => t.status === 'COMPLETED',
      30_000,
    );
  expect(await h.orm.em.fork().count(Quote, { platformId: p.platform.id })).toBe(paidIds.length);
  expect(await h.orm.em.fork().count(Transaction, { platformId: p.platform.id, status: 'PENDING' })).toBe(0);
  expect(await balanceOf(p)).toBe(funds - each * paidIds.length);
  // Announced for the paid ones only, each PENDING, PROCESSING and COMPLETED once.
  await h.receiver.waitFor(() => [...outgoingHooks(p.usd).values()].flat().length >= 3 * paidIds.length);
  const hooks = outgoingHooks(p.usd);
  expect([...hooks.keys()].sort()).toEqual([...paidIds].sort());
  for (const types of hooks.values()) expect(types.sort()).toEqual(['OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING']);
  expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
}

test('50 parallel POST /transfer-out of 1,000 against 10,000: 10 paid, 40 refused INSUFFICIENT_FUNDS, and only the 10 are listed', async () => {
  const p = await funded(10_000);
  const answers = await Promise.all(
    Array.from({ length: 50 }, () =>
      p.api.postRetryingUnavailable('/transfer-out', { source: { accountId: p.usd }, destination: { accountId: p.bank }, amount: 1_000 }),
    ),
  );
  const paid = answers.filter((a) => a.status === 201);
  const refused = answers.filter((a) => a.status !== 201);
  expect(refused.map((a) => `${a.status} ${a.body.code}`)).toEqual(Array(40).fill('400 INSUFFICIENT_FUNDS'));
  expect(paid).toHaveLength(10);
  await onlyPaidRemain(
    p,
    paid.map((a) => a.body.id as string),
    10_000,
    1_000,
  );
}, 180_000);

test('parallel POST /quotes with immediatelyExecute over the balance: the refused quotes are not listed, not found, never executed later', async () => {
  const p = await funded(3_000);
  const body = {
    source: { sourceType: 'ACCOUNT', accountId: p.usd },
    destination: { destinationType: 'ACCOUNT', accountId: p.bank },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1_000,
    immediatelyExecute: true,
  };
  const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => p.api.post('/quotes', body, { 'Idempotency-Key': `now-${i}` })));
  const paid = answers.filter((a) => a.status === 201);
  expect(answers.filter((a) => a.status !== 201).map((a) => `${a.status} ${a.body.code}`)).toEqual(Array(5).fill('400 INSUFFICIENT_FUNDS'));
  expect(paid).toHaveLength(3);
  // A retry of a refused request is answered as it was (its key's stored answer), and makes no quote.
  const refusedKey = answers.findIndex((a) => a.status !== 201);
  const retried = await p.api.post('/quotes', body, { 'Idempotency-Key': `now-${refusedKey}` });
  expect([retried.status, retried.body.code]).toEqual([400, 'INSUFFICIENT_FUNDS']);
  await onlyPaidRemain(
    p,
    paid.map((a) => a.body.transactionId as string),
    3_000,
    1_000,
  );
}, 180_000);

test("an agent's parallel transfers over the balance: the refused ones leave no action, no quote, no transaction", async () => {
  const p = await funded(3_000);
  const policy = {
    permissions: ['CREATE_TRANSFERS'],
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 500_000, dailyTransactionLimit: 100, monthlyLimit: null },
  };
  const created = await p.api.post('/agents', { name: 'Payout bot', customerId: p.customerId, policy });
  expect(created.status).toBe(201);
  const redeemed = await request(h.app).post(`${BASE}/agents/device-codes/${encodeURIComponent(created.body.deviceCode.code)}/redeem`);
  const agent = new Api(h.app, `Bearer ${redeemed.body.accessToken}`);
  const answers = await Promise.all(
    Array.from({ length: 8 }, () =>
      agent.postRetryingUnavailable('/agents/me/transfer-out', { source: { accountId: p.usd }, destination: { accountId: p.bank }, amount: 1_000 }),
    ),
  );
  const paid = answers.filter((a) => a.status === 201);
  expect(answers.filter((a) => a.status !== 201).map((a) => `${a.status} ${a.body.code}`)).toEqual(Array(5).fill('400 INSUFFICIENT_FUNDS'));
  expect(paid.map((a) => a.body.status)).toEqual(Array(3).fill('APPROVED'));
  const actions = (await agent.get('/agents/me/actions?limit=100')).body.data as { id: string }[];
  expect(actions.map((a) => a.id).sort()).toEqual(paid.map((a) => a.body.id as string).sort());
  expect(await h.orm.em.fork().count(AgentQuote, { agentId: created.body.agent.id })).toBe(3);
  await onlyPaidRemain(
    p,
    paid.map((a) => a.body.transaction.id as string),
    3_000,
    1_000,
  );
}, 180_000);

test("a withdrawn quote's expiry (the payment workflow's timer) finds nothing to expire or announce", async () => {
  expect(await expireQuote(h.orm.em.fork(), { quoteId: 'Quote:00000000-0000-4000-8000-000000000000' })).toEqual({ events: [] });
});

import { ExternalAccount } from '../../src/contexts/external-accounts/entities';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { returnShortfallAccountId } from '../../src/contexts/ledger/services/holds';
import { LedgerAccount } from '../../src/contexts/ledger/entities';
import { returnPulledPayment } from '../../src/contexts/payments/services/outgoing-payments';
import { runExecutionStep } from '../../src/contexts/payments/services/quote-execution';
import { EXECUTION_GATES } from '../../src/contexts/execution-gates';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf, usdAccount } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';

// Quotes funded by pulling from the customer's US bank account (ACH pull), the deprecated
// POST /transfer-in, and the sandbox's pull rows (spec §8). The 30-second rows (005 pending,
// 009 return) run on the time-skipping server in test/workflows/payments.mocked.test.ts; here the
// 009 return's database step is driven directly.

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

/** A customer with its USD internal account and a validated US bank account whose number ends in `suffix`. */
async function customerWithBank(api: Api, suffix = '999') {
  const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `p-${Math.random()}`, fullName: 'Jane Doe' });
  const customerId = customer.body.id as string;
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`);
  const usd = accounts.body.data.find((a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'USD').id as string;
  const bank = await api.post('/customers/external-accounts', { customerId, ...usdAccount(`123456${suffix}`) });
  expect(bank.status).toBe(201);
  return { customerId, usd, bank: bank.body.id as string };
}

/** The sandbox's micro-entry window (10 s) has passed for the account. */
async function validated(accountId: string) {
  await h.orm.em.fork().nativeUpdate(ExternalAccount, { id: accountId }, { bankValidation: 'PASSED' });
}

const pullQuote = (source: string, destination: string, amount = 10_000, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  ...extra,
});

async function available(api: Api, accountId: string): Promise<number> {
  const res = await api.get(`/customers/internal-accounts?limit=100`);
  return res.body.data.find((a: { id: string }) => a.id === accountId).balance.amount;
}

const transactionOf = (api: Api, id: string) => api.get(`/transactions/${id}`).then((r) => r.body);
const hooksOf = (id: string) => h.receiver.received.filter((w) => w.body.data?.id === id).map((w) => w.body.type as string);

describe('pull-funded quotes', () => {
  test('a pull into the customer’s own account: an INCOMING transaction, COMPLETED, credited less the fees, INCOMING_PAYMENT.COMPLETED, clean ledger', async () => {
    const { api } = await h.platform();
    const c = await customerWithBank(api);
    await validated(c.bank);
    const q = (await api.post('/quotes', pullQuote(c.bank, c.usd))).body;
    expect(q).toMatchObject({
      status: 'PENDING',
      source: { sourceType: 'ACCOUNT', accountId: c.bank },
      sendingCurrency: { code: 'USD' },
      receivingCurrency: { code: 'USD' },
      totalSendingAmount: 10_000,
    });
    expect(q.paymentInstructions).toBeUndefined();
    expect(await transactionOf(api, q.transactionId)).toMatchObject({
      type: 'INCOMING',
      direction: 'DEBIT',
      status: 'PENDING',
      source: { sourceType: 'ACCOUNT', accountId: c.bank },
    });

    const executed = await api.post(`/quotes/${q.id}/execute`);
    expect(executed.status).toBe(200);
    expect(executed.body).toMatchObject({ id: q.id, transactionId: q.transactionId });
    const done = await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect(done).toMatchObject({
      receivedAmount: { amount: q.totalReceivingAmount, currency: { code: 'USD' } },
      sentAmount: { amount: 10_000 },
      quoteId: q.id,
      fees: q.feesIncluded,
      settledAt: expect.any(String),
    });
    expect(q.totalReceivingAmount).toBe(10_000 - q.feesIncluded);
    expect(await available(api, c.usd)).toBe(q.totalReceivingAmount);
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'INCOMING_PAYMENT.COMPLETED' && w.body.data.id === q.transactionId));
    await h.receiver.waitFor((hooks) =>
      hooks.some(
        (w) =>
          w.body.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' &&
          w.body.data.id === c.usd &&
          (w.body.data.balance as { amount: number }).amount === q.totalReceivingAmount,
      ),
    );
    // No OUTGOING_PAYMENT.* for money coming in, and no INCOMING_PAYMENT.PROCESSING (the reference has none).
    expect(hooksOf(q.transactionId)).toEqual(['INCOMING_PAYMENT.COMPLETED']);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test.each([['002'], ['003'], ['004']])(
    'the bank refuses a pull from an account ending %s: FAILED (COLLECTION_FAILED) at once, nothing credited or refunded',
    async (suffix) => {
      const { api } = await h.platform();
      const c = await customerWithBank(api, suffix);
      await validated(c.bank);
      const q = (await api.post('/quotes', pullQuote(c.bank, c.usd))).body;
      expect((await api.post(`/quotes/${q.id}/execute`)).status).toBe(200);
      const failed = await eventually(
        () => transactionOf(api, q.transactionId),
        (t) => t.status === 'FAILED',
      );
      expect(failed).toMatchObject({ type: 'INCOMING', failureReason: 'COLLECTION_FAILED' });
      expect(failed.refund).toBeUndefined();
      expect(await available(api, c.usd)).toBe(0);
      expect((await api.get(`/quotes/${q.id}`)).body.status).toBe('FAILED');
      await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'INCOMING_PAYMENT.FAILED' && w.body.data.id === q.transactionId));
      expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
    },
  );

  test('a pull pending at the bank (005) can be cancelled: FAILED, nothing moved; once failed it cannot', async () => {
    const { api } = await h.platform();
    const c = await customerWithBank(api, '005');
    await validated(c.bank);
    const q = (await api.post('/quotes', pullQuote(c.bank, c.usd))).body;
    expect((await api.post(`/quotes/${q.id}/execute`)).body.status).toBe('PROCESSING');
    const cancelled = await api.post(`/transactions/${q.transactionId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: q.transactionId, status: 'FAILED' });
    expect(cancelled.body.failureReason).toBeUndefined();
    expect(await available(api, c.usd)).toBe(0);
    expect((await api.post(`/transactions/${q.transactionId}/cancel`)).body.code).toBe('TRANSACTION_NOT_CANCELLABLE');
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('a returned pull (009): the credit is taken back; what was already spent is charged to the platform’s shortfall, never below zero', async () => {
    const { api, platform } = await h.platform();
    const c = await customerWithBank(api, '009');
    await validated(c.bank);
    const q = (await api.post('/quotes', pullQuote(c.bank, c.usd, 20_000))).body;
    await api.post(`/quotes/${q.id}/execute`);
    await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    const credited = q.totalReceivingAmount as number;
    expect(await available(api, c.usd)).toBe(credited);
    // The customer spends part of it before the bank's return arrives.
    const spend = await api.post('/customers/external-accounts', { customerId: c.customerId, ...usdAccount('987654321') });
    await validated(spend.body.id);
    const payout = (await api.post('/quotes', pullQuote(c.usd, spend.body.id, 5_000, { immediatelyExecute: true }))).body;
    await eventually(
      () => transactionOf(api, payout.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    const left = await available(api, c.usd);
    expect(left).toBe(credited - 5_000);

    // The return's step (the workflow runs it 30 s after completion; see the workflow test).
    await returnPulledPayment(h.orm.em.fork(), { transactionId: q.transactionId });
    const returned = await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'FAILED',
    );
    expect(returned).toMatchObject({ type: 'INCOMING', failureReason: 'COLLECTION_FAILED' });
    expect(await available(api, c.usd)).toBe(0);
    const shortfall = await h.orm.em.fork().findOneOrFail(LedgerAccount, { id: returnShortfallAccountId(platform.id, 'USD') });
    expect(shortfall.balance).toBe(BigInt(-(credited - left)));
    // Repeating the step (a retried activity) moves nothing more.
    await returnPulledPayment(h.orm.em.fork(), { transactionId: q.transactionId });
    expect(await available(api, c.usd)).toBe(0);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test.each([
    ['999', 'COMPLETED', undefined],
    ['004', 'FAILED', 'COMPLETED'],
  ])('a pull that funds a payout to a EUR account ending %s: OUTGOING, %s; a failed payout is refunded to the pulled bank', async (suffix, status, refund) => {
    const { api, platform } = await h.platform();
    const c = await customerWithBank(api);
    await validated(c.bank);
    const iban = await api.post('/customers/external-accounts', { customerId: c.customerId, ...eurAccount(ibanOf('DE', `370400440532013${suffix}`)) });
    const q = (await api.post('/quotes', pullQuote(c.bank, iban.body.id))).body;
    expect(q).toMatchObject({ sendingCurrency: { code: 'USD' }, receivingCurrency: { code: 'EUR' } });
    expect((await api.post(`/quotes/${q.id}/execute`)).status).toBe(200);
    const done = await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === status,
    );
    expect(done).toMatchObject({ type: 'OUTGOING', source: { accountId: c.bank } });
    if (refund) expect(done.refund).toMatchObject({ status: refund });
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === `OUTGOING_PAYMENT.${status}` && w.body.data.id === q.transactionId));
    // The customer's own account is never touched: the money comes from the bank and goes out (or back).
    expect(await available(api, c.usd)).toBe(0);
    const pending = await h.orm.em.fork().findOne(LedgerAccount, { id: `Ledger:${platform.id}:PENDING_OUTGOING:USD` });
    expect(pending?.balance ?? 0n).toBe(0n);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('immediatelyExecute on a pull source: created and executed in one call', async () => {
    const { api } = await h.platform();
    const c = await customerWithBank(api);
    await validated(c.bank);
    const created = await api.post('/quotes', pullQuote(c.bank, c.usd, 10_000, { immediatelyExecute: true }));
    expect(created.status).toBe(201);
    expect(['PROCESSING', 'COMPLETED']).toContain(created.body.status);
    await eventually(
      () => transactionOf(api, created.body.transactionId),
      (t) => t.status === 'COMPLETED',
    );
  });

  test('refusals: an unpullable account, a bank inside its validation window, another owner’s account, a deleted account', async () => {
    const { api } = await h.platform();
    const c = await customerWithBank(api);
    const pending = await api.post('/quotes', pullQuote(c.bank, c.usd));
    expect(pending.status).toBe(409);
    expect(pending.body.code).toBe('BANK_ACCOUNT_VALIDATION_PENDING');
    await validated(c.bank);

    const iban = await api.post('/customers/external-accounts', { customerId: c.customerId, ...eurAccount(ibanOf('DE', '370400440532013999')) });
    const eurPull = await api.post('/quotes', pullQuote(iban.body.id, c.usd));
    expect(eurPull.status).toBe(400);
    expect(eurPull.body.details.errors).toEqual([
      expect.objectContaining({ field: 'source.accountId', constraint: expect.objectContaining({ rule: 'pullable' }) }),
    ]);

    const other = await customerWithBank(api, '998');
    const foreign = await api.post('/quotes', pullQuote(c.bank, other.usd));
    expect(foreign.status).toBe(400);
    expect(foreign.body.details.errors).toEqual([
      expect.objectContaining({ field: 'destination.accountId', constraint: expect.objectContaining({ rule: 'sameOwner' }) }),
    ]);

    const q = (await api.post('/quotes', pullQuote(c.bank, c.usd))).body;
    expect((await api.delete(`/customers/external-accounts/${c.bank}`)).status).toBe(204);
    const gone = await api.post(`/quotes/${q.id}/execute`);
    expect(gone.status).toBe(400);
    expect(gone.body.details.errors).toEqual([
      expect.objectContaining({ field: 'source.accountId', constraint: expect.objectContaining({ rule: 'notDeleted' }) }),
    ]);
    expect(await available(api, c.usd)).toBe(0);
  });

  test('immediatelyExecute is refused for real-time funding (field error) and for an embedded wallet source', async () => {
    const { api } = await h.platform({ embeddedWalletsSupported: true });
    const c = await customerWithBank(api);
    const rtf = await api.post('/quotes', {
      ...pullQuote('', c.usd),
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: c.customerId },
      immediatelyExecute: true,
    });
    expect(rtf.status).toBe(400);
    expect(rtf.body.details.errors).toEqual([
      expect.objectContaining({ field: 'immediatelyExecute', constraint: expect.objectContaining({ rule: 'accountSource' }) }),
    ]);

    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.customerId)}&type=EMBEDDED_WALLET`);
    const wallet = accounts.body.data[0].id as string;
    await api.post(`/sandbox/internal-accounts/${wallet}/fund`, { amount: 50_000_000 });
    const immediate = await api.post('/quotes', pullQuote(wallet, c.usd, 10_000_000, { immediatelyExecute: true }));
    expect(immediate.status).toBe(400);
    expect(immediate.body.details.errors).toEqual([
      expect.objectContaining({ field: 'immediatelyExecute', constraint: expect.objectContaining({ rule: 'embeddedWallet' }) }),
    ]);

    // Created without it, it is executed with the wallet's signature (test/api/wallet-payments.test.ts): a malformed one moves nothing.
    const q = await api.post('/quotes', pullQuote(wallet, c.usd, 10_000_000));
    expect(q.status).toBe(201);
    const malformed = await api.post(`/quotes/${q.body.id}/execute`, undefined, { 'Svc-Wallet-Signature': 'stamp' });
    expect([malformed.status, malformed.body.code]).toEqual([401, 'WALLET_SIGNATURE_MALFORMED']);
    expect((await api.get(`/quotes/${q.body.id}`)).body.status).toBe('PENDING');
    // No other path (e.g. the deprecated /transfer-out) can go around it: the execution step itself holds a wallet's payment until its signature approves it.
    await expect(runExecutionStep(h.orm.em.fork(), { quoteId: q.body.id }, EXECUTION_GATES)).resolves.toMatchObject({
      held: { gate: 'wallet-signature', status: 'PENDING_AUTHORIZATION' },
    });
    expect(
      (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.customerId)}&type=EMBEDDED_WALLET`)).body.data[0].balance.amount,
    ).toBe(50_000_000);
  });
});

describe('tenant isolation and quote fields', () => {
  test('another platform’s bank account or internal account cannot be pulled from or into', async () => {
    const mine = await h.platform();
    const theirs = await h.platform();
    const c = await customerWithBank(theirs.api);
    await validated(c.bank);
    const own = await customerWithBank(mine.api);
    const pullTheirs = await mine.api.post('/quotes', pullQuote(c.bank, own.usd));
    expect(pullTheirs.status).toBe(400);
    expect(pullTheirs.body.details.errors).toEqual([
      expect.objectContaining({ field: 'source.accountId', constraint: expect.objectContaining({ rule: 'exists' }) }),
    ]);
    const transferTheirs = await mine.api.post('/transfer-in', { source: { accountId: c.bank }, destination: { accountId: c.usd }, amount: 100 });
    expect(transferTheirs.status).toBe(400);
    expect(await available(theirs.api, c.usd)).toBe(0);
    expect((await mine.api.get('/transactions')).body.data).toEqual([]);
  });

  test('scaFactor: SMS_OTP and PASSKEY are accepted, TOTP refused (no dynamic linking)', async () => {
    const { api } = await h.platform();
    const c = await customerWithBank(api);
    await validated(c.bank);
    expect((await api.post('/quotes', pullQuote(c.bank, c.usd, 10_000, { scaFactor: 'PASSKEY' }))).status).toBe(201);
    const totp = await api.post('/quotes', pullQuote(c.bank, c.usd, 10_000, { scaFactor: 'TOTP' }));
    expect(totp.status).toBe(400);
    expect(totp.body.details.errors).toEqual([
      expect.objectContaining({ field: 'scaFactor', constraint: expect.objectContaining({ rule: 'dynamicLinking' }) }),
    ]);
  });
});

describe('POST /transfer-in (deprecated)', () => {
  test('pulls the amount into the internal account: 201 with the INCOMING transaction, Deprecation header', async () => {
    const { api } = await h.platform();
    const c = await customerWithBank(api);
    await validated(c.bank);
    const res = await api.post('/transfer-in', { source: { accountId: c.bank }, destination: { accountId: c.usd }, amount: 12_550 });
    expect(res.status).toBe(201);
    expect(res.headers.deprecation).toBeDefined();
    expect(res.body).toMatchObject({
      type: 'INCOMING',
      direction: 'DEBIT',
      source: { sourceType: 'ACCOUNT', accountId: c.bank },
      destination: { accountId: c.usd },
    });
    const done = await eventually(
      () => transactionOf(api, res.body.id),
      (t) => t.status === 'COMPLETED',
    );
    expect(await available(api, c.usd)).toBe(done.receivedAmount.amount);
  });

  test('refusals: the accounts swapped, another currency', async () => {
    const { api } = await h.platform();
    const c = await customerWithBank(api);
    await validated(c.bank);
    const swapped = await api.post('/transfer-in', { source: { accountId: c.usd }, destination: { accountId: c.bank }, amount: 100 });
    expect(swapped.status).toBe(400);
    expect(swapped.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['destination.accountId', 'source.accountId']);
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.customerId)}`);
    const eur = accounts.body.data.find((a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'EUR').id as string;
    const crossCurrency = await api.post('/transfer-in', { source: { accountId: c.bank }, destination: { accountId: eur }, amount: 100 });
    expect(crossCurrency.status).toBe(400);
    expect(crossCurrency.body.details.errors).toEqual([
      expect.objectContaining({ field: 'source.accountId', constraint: expect.objectContaining({ rule: 'sameCurrency' }) }),
    ]);
  });
});

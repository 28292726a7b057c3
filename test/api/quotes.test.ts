import { Quote } from '../../src/contexts/payments/entities';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { strandedQuotes } from '../../src/contexts/payments/services/stranded-quotes';
import { expireQuote } from '../../src/contexts/payments/services/outgoing-payments';
import { endHeldExecution, runExecutionStep } from '../../src/contexts/payments/services/quote-execution';
import { executionRequestKey } from '../../src/contexts/payments/domain/execution-attempts';
import { EXECUTION_GATES } from '../../src/contexts/execution-gates';
import { startStrandedOf } from '../../src/temporal/start-stranded';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';
import type { ReceivedWebhook } from '../support/receiver';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

/** A customer with funded USD and EUR internal accounts and a EUR bank account whose IBAN ends in `suffix`. */
async function payer(api: Api, suffix = '999', fundUsd = 100_000) {
  const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `p-${Math.random()}`, fullName: 'Jane Doe' });
  const customerId = customer.body.id as string;
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`);
  const usd = accounts.body.data.find((a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'USD').id as string;
  const eur = accounts.body.data.find((a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'EUR').id as string;
  if (fundUsd > 0) expect((await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: fundUsd })).status).toBe(200);
  const bank = await api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', `370400440532013${suffix}`)) });
  expect(bank.status).toBe(201);
  return { customerId, usd, eur, bank: bank.body.id as string };
}

const quoteBody = (source: string, destination: string, amount = 10_000) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  description: 'Invoice 42',
});

async function balances(api: Api, accountId: string) {
  const res = await api.get(`/customers/internal-accounts?limit=100`);
  const account = res.body.data.find((a: { id: string }) => a.id === accountId);
  return { available: account.balance.amount as number, total: account.totalBalance.amount as number };
}

const transactionOf = (api: Api, id: string) => api.get(`/transactions/${id}`).then((r) => r.body);

describe('quotes and their execution', () => {
  test('a USD → EUR payout: priced, executed (funds held), COMPLETED, fees to their accounts, webhooks, clean ledger', async () => {
    const { api } = await h.platform();
    const p = await payer(api);
    const created = await api.post('/quotes', quoteBody(p.usd, p.bank));
    expect(created.status).toBe(201);
    const q = created.body;
    expect(q).toMatchObject({
      status: 'PENDING',
      sendingCurrency: { code: 'USD' },
      receivingCurrency: { code: 'EUR' },
      totalSendingAmount: 10_000,
      transactionId: expect.stringMatching(/^Transaction:/),
    });
    expect(q.totalReceivingAmount).toBeGreaterThan(0);
    expect(q.feesIncluded).toBeGreaterThanOrEqual(q.platformFeesIncluded);
    expect(Date.parse(q.expiresAt)).toBeGreaterThan(Date.now());
    expect((await api.get(`/quotes/${q.id}`)).body).toEqual(q);
    expect(await transactionOf(api, q.transactionId)).toMatchObject({ status: 'PENDING', type: 'OUTGOING', quoteId: q.id, sentAmount: { amount: 10_000 } });

    const executed = await api.post(`/quotes/${q.id}/execute`);
    expect(executed.status).toBe(200);
    // Answered once the funds are held; the payout may already have completed by the time it is read.
    // The reference's execute answers with the quote; its transactionId is the payment.
    expect(executed.body).toMatchObject({ id: q.id, transactionId: q.transactionId, expiresAt: q.expiresAt });
    expect(['PROCESSING', 'COMPLETED']).toContain(executed.body.status);
    const done = await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect(done).toMatchObject({
      status: 'COMPLETED',
      receivedAmount: { amount: q.totalReceivingAmount },
      fees: q.feesIncluded,
      settledAt: expect.any(String),
    });
    expect(await balances(api, p.usd)).toEqual({ available: 90_000, total: 90_000 });
    expect((await api.get(`/quotes/${q.id}`)).body.status).toBe('COMPLETED');
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'OUTGOING_PAYMENT.COMPLETED' && w.body.data.id === q.transactionId));
    // Each once; the two workflows deliver independently, so their order is not fixed.
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'OUTGOING_PAYMENT.PROCESSING' && w.body.data.id === q.transactionId));
    const hooks = h.receiver.received.filter((w) => w.body.data.id === q.transactionId);
    expect(hooks.map((w) => w.body.type).sort()).toEqual(['OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING']);
    // PENDING once the execution is accepted, before PROCESSING (delivered in that order), showing the transaction as it was.
    const pending = hooks.findIndex((w) => w.body.type === 'OUTGOING_PAYMENT.PENDING');
    expect(pending).toBeLessThan(hooks.findIndex((w) => w.body.type === 'OUTGOING_PAYMENT.PROCESSING'));
    expect(hooks[pending]!.body.data).toMatchObject({ id: q.transactionId, status: 'PENDING', quoteId: q.id });
    // Executing again changes nothing: 409, naming the transaction the first execution started.
    const again = await api.post(`/quotes/${q.id}/execute`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', details: { transactionId: q.transactionId } });
    expect(await balances(api, p.usd)).toEqual({ available: 90_000, total: 90_000 });
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test("rateDetails carry the reference's gridApi… names beside the spec's svcApi… ones: quote, transaction, webhook and openapi.json", async () => {
    const { api } = await h.platform();
    const p = await payer(api);
    const q = (await api.post('/quotes', quoteBody(p.usd, p.bank)).expect(201)).body;
    const bothNames = (rateDetails: Record<string, unknown>) => {
      for (const field of ['Multiplier', 'FixedFee', 'VariableFeeRate', 'VariableFeeAmount']) {
        expect(rateDetails[`gridApi${field}`]).toEqual(expect.any(Number));
        expect(rateDetails[`gridApi${field}`]).toBe(rateDetails[`svcApi${field}`]);
      }
    };
    bothNames(q.rateDetails);
    bothNames((await api.get(`/quotes/${q.id}`)).body.rateDetails);
    await api.post(`/quotes/${q.id}/execute`).expect(200);
    bothNames((await transactionOf(api, q.transactionId)).rateDetails);
    const processing = (w: ReceivedWebhook) => w.body.type === 'OUTGOING_PAYMENT.PROCESSING' && w.body.data.id === q.transactionId;
    await h.receiver.waitFor((hooks) => hooks.some(processing));
    bothNames(h.receiver.received.find(processing)!.body.data.rateDetails as Record<string, unknown>);
    const declared = (await api.get('/openapi.json').expect(200)).body.components.schemas.OutgoingRateDetails;
    expect(declared.required).toEqual(expect.arrayContaining(['gridApiMultiplier', 'gridApiFixedFee', 'gridApiVariableFeeRate', 'gridApiVariableFeeAmount']));
  });

  test('insufficient funds: 400 INSUFFICIENT_FUNDS, nothing held, the quote stays PENDING', async () => {
    const { api } = await h.platform();
    const p = await payer(api, '999', 5_000);
    const q = (await api.post('/quotes', quoteBody(p.usd, p.bank))).body;
    const res = await api.post(`/quotes/${q.id}/execute`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INSUFFICIENT_FUNDS');
    expect((await api.get(`/quotes/${q.id}`)).body.status).toBe('PENDING');
    expect(await balances(api, p.usd)).toEqual({ available: 5_000, total: 5_000 });
  });

  test('an expired quote cannot be executed: QUOTE_EXPIRED', async () => {
    const { api } = await h.platform();
    const p = await payer(api);
    const q = (await api.post('/quotes', quoteBody(p.usd, p.bank))).body;
    await h.orm.em.fork().nativeUpdate(Quote, { id: q.id }, { expiresAt: new Date(Date.now() - 1000) });
    const res = await api.post(`/quotes/${q.id}/execute`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('QUOTE_EXPIRED');
  });

  test.each([
    ['004', 'COUNTERPARTY_POST_TX_FAILED', 'COMPLETED', 100_000],
    ['006', 'COUNTERPARTY_POST_TX_FAILED', 'COMPLETED', 100_000],
    ['002', 'QUOTE_EXECUTION_FAILED', 'COMPLETED', 100_000],
    ['007', 'COUNTERPARTY_POST_TX_FAILED', 'FAILED', 90_000],
  ])('payout destination ending %s: FAILED (%s), refund %s', async (suffix, reason, refund, finalBalance) => {
    const { api } = await h.platform();
    const p = await payer(api, suffix);
    const q = (await api.post('/quotes', quoteBody(p.usd, p.bank))).body;
    expect((await api.post(`/quotes/${q.id}/execute`)).status).toBe(200);
    const failed = await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'FAILED',
    );
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: reason, refund: { status: refund } });
    expect(await balances(api, p.usd)).toEqual({ available: finalBalance, total: finalBalance });
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === `OUTGOING_PAYMENT.REFUND_${refund}` && w.body.data.id === q.transactionId));
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('payout destination ending 005: COMPLETED, then returned (~30 s): FAILED PAYOUT_RETURNED, refunded in full', async () => {
    const { api } = await h.platform();
    const p = await payer(api, '005');
    const q = (await api.post('/quotes', quoteBody(p.usd, p.bank))).body;
    await api.post(`/quotes/${q.id}/execute`);
    await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect(await balances(api, p.usd)).toEqual({ available: 90_000, total: 90_000 });
    const returned = await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'FAILED',
      45_000,
    );
    expect(returned).toMatchObject({ failureReason: 'PAYOUT_RETURNED', refund: { status: 'COMPLETED' } });
    expect(await balances(api, p.usd)).toEqual({ available: 100_000, total: 100_000 });
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  }, 60_000);

  test('to the customer’s own EUR internal account: converted and credited; self-payment refused', async () => {
    const { api } = await h.platform();
    const p = await payer(api);
    const self = await api.post('/quotes', quoteBody(p.usd, p.usd));
    expect(self.status).toBe(400);
    expect(self.body.code).toBe('SELF_PAYMENT');
    const q = (await api.post('/quotes', quoteBody(p.usd, p.eur))).body;
    await api.post(`/quotes/${q.id}/execute`);
    await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect((await balances(api, p.eur)).available).toBe(q.totalReceivingAmount);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('invalid requests list every field; another platform sees nothing', async () => {
    const { api } = await h.platform();
    const p = await payer(api);
    const bad = await api.post('/quotes', {
      source: { sourceType: 'ACCOUNT' },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$a@b.c' },
      lockedCurrencySide: 'BOTH',
      lockedCurrencyAmount: 0,
      remittanceInformation: 'x'.repeat(81),
    });
    expect(bad.status).toBe(400);
    expect((bad.body.details.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(
      ['lockedCurrencyAmount', 'lockedCurrencySide', 'remittanceInformation', 'source.accountId'].sort(),
    );
    const noLookup = await api.post('/quotes', { ...quoteBody(p.usd, p.bank), destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$a@b.example' } });
    expect(noLookup.status).toBe(400);
    expect(noLookup.body.details.errors).toEqual([expect.objectContaining({ field: 'lookupId', constraint: expect.objectContaining({ rule: 'required' }) })]);
    const q = (await api.post('/quotes', quoteBody(p.usd, p.bank))).body;
    const other = await h.platform();
    expect((await other.api.get(`/quotes/${q.id}`)).status).toBe(404);
    expect((await other.api.post(`/quotes/${q.id}/execute`)).status).toBe(404);
    expect((await other.api.post('/quotes', quoteBody(p.usd, p.bank))).status).toBe(400);
    expect((await other.api.get(`/transactions/${q.transactionId}`)).status).toBe(404);
  });

  test('concurrent payments from one account: never overdrawn, balance exact, audit clean', async () => {
    const { api } = await h.platform();
    const p = await payer(api, '999', 100_000);
    const quotes = await Promise.all(Array.from({ length: 14 }, () => api.post('/quotes', quoteBody(p.usd, p.bank)).then((r) => r.body)));
    const executed = await Promise.all(quotes.map((q) => api.post(`/quotes/${q.id}/execute`)));
    const statuses = executed.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(executed.filter((r) => r.status === 400).every((r) => r.body.code === 'INSUFFICIENT_FUNDS')).toBe(true);
    for (const q of quotes.filter((_q, i) => statuses[i] === 200))
      await eventually(
        () => transactionOf(api, q.transactionId),
        (t) => t.status === 'COMPLETED',
      );
    expect(await balances(api, p.usd)).toEqual({ available: 0, total: 0 });
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  }, 60_000);

  test('real-time funding: payment instructions with a unique reference; /sandbox/send pays it and the payout completes', async () => {
    const { api } = await h.platform();
    const p = await payer(api, '999', 0);
    const created = await api.post('/quotes', {
      ...quoteBody(p.usd, p.bank),
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: p.customerId },
    });
    expect(created.status).toBe(201);
    const q = created.body;
    expect(q.source).toEqual({ sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: p.customerId });
    expect(q.paymentInstructions[0].accountOrWalletInfo).toMatchObject({ accountType: 'USD_ACCOUNT', reference: expect.stringMatching(/^Q[0-9A-F]{11}$/) });
    const other = (await api.post('/quotes', { ...quoteBody(p.usd, p.bank), source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' } })).body;
    expect(other.paymentInstructions[0].accountOrWalletInfo.reference).not.toBe(q.paymentInstructions[0].accountOrWalletInfo.reference);
    // Executing is for held sources; the wrong currency or amount is refused.
    expect((await api.post(`/quotes/${q.id}/execute`)).status).toBe(409);
    const wrongCurrency = await api.post('/sandbox/send', { quoteId: q.id, currencyCode: 'EUR' });
    expect(wrongCurrency.status).toBe(400);
    expect(wrongCurrency.body.details.errors[0].field).toBe('currencyCode');
    const wrongAmount = await api.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD', currencyAmount: q.totalSendingAmount - 1 });
    expect(wrongAmount.status).toBe(400);
    expect(wrongAmount.body.details.errors[0].field).toBe('currencyAmount');
    const sent = await api.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ id: q.transactionId, source: { sourceType: 'REALTIME_FUNDING' } });
    await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect((await api.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' })).body.id).toBe(q.transactionId);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('cancel: a US payout the bank has not settled (suffix 003) is cancelled and refunded; a settled one is not cancellable; confirm records the receipt', async () => {
    const { api } = await h.platform();
    const p = await payer(api);
    const bank = await api.post('/customers/external-accounts', {
      customerId: p.customerId,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        routingNumber: '021000021',
        accountNumber: '123456003',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' },
      },
    });
    await eventually(
      () => api.get(`/customers/external-accounts/${bank.body.id}`).then((r) => r.body.status),
      (s) => s === 'ACTIVE',
      30_000,
    );
    const q = (
      await api.post('/quotes', { ...quoteBody(p.usd, bank.body.id), destination: { destinationType: 'ACCOUNT', accountId: bank.body.id, paymentRail: 'ACH' } })
    ).body;
    expect((await api.post(`/quotes/${q.id}/execute`)).status).toBe(200);
    const cancelled = await api.post(`/transactions/${q.transactionId}/cancel`, { reason: 'REQUESTED_AFTER_HOURS' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'FAILED', refund: { status: 'COMPLETED', reason: 'USER_CANCELLATION' } });
    expect(await balances(api, p.usd)).toEqual({ available: 100_000, total: 100_000 });
    const again = await api.post(`/transactions/${q.transactionId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('TRANSACTION_NOT_CANCELLABLE');
    const confirmed = await api.post(`/transactions/${q.transactionId}/confirm`, { receiptDeliveryConfirmedAt: '2026-11-23T10:00:00Z' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.receiptDeliveryConfirmedAt).toBe('2026-11-23T10:00:00.000Z');
    const other = await h.platform();
    expect((await other.api.post(`/transactions/${q.transactionId}/confirm`)).status).toBe(404);
    expect((await other.api.post(`/transactions/${q.transactionId}/cancel`)).status).toBe(404);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  }, 60_000);

  test("an execution the workflow never heard of (its update lost with the task that ran it) is given to the workflow by the request's retry: the payment completes", async () => {
    const { api } = await h.platform();
    const p = await payer(api);
    const q = (await api.post('/quotes', quoteBody(p.usd, p.bank))).body;
    // What a workflow task the server lost leaves behind: the execution step committed, the workflow still waiting.
    const step = await runExecutionStep(h.orm.em.fork(), { quoteId: q.id, requestKey: executionRequestKey('exec-lost') }, EXECUTION_GATES);
    expect(step).toMatchObject({ alreadyExecuted: false, transactionId: q.transactionId });
    expect(await transactionOf(api, q.transactionId)).toMatchObject({ status: 'PROCESSING' });
    // The partner's retry of that request.
    const retried = await api.post(`/quotes/${q.id}/execute`, undefined, { 'Idempotency-Key': 'exec-lost' });
    expect(retried.status).toBe(200);
    const done = await eventually(
      () => transactionOf(api, q.transactionId),
      (t) => t.status === 'COMPLETED',
      20_000,
    );
    expect(done.status).toBe('COMPLETED');
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test("an executed quote's expiry changes nothing and says the quote was executed, with the request key the execution recorded", async () => {
    const { api } = await h.platform();
    // 003: the rail answers after 6 minutes, so the payment is still PROCESSING when its expiry is asked.
    const p = await payer(api, '003');
    const q = (await api.post('/quotes', quoteBody(p.usd, p.bank))).body;
    expect((await api.post(`/quotes/${q.id}/execute`, undefined, { 'Idempotency-Key': 'exec-1' })).status).toBe(200);
    const before = await h.orm.em.fork().findOneOrFail(Quote, { id: q.id });
    // What the payment's workflow asks at the quote's end of life when its execution update never reached it.
    const expiry = await expireQuote(h.orm.em.fork(), { quoteId: q.id });
    expect(expiry).toEqual({ events: [], executedAlready: { requestKey: before.executionKey } });
    expect(before.executionKey).toEqual(expect.any(String));
    const after = await h.orm.em.fork().findOneOrFail(Quote, { id: q.id });
    expect(after.status).toBe(before.status);
    expect(after.updatedAt).toEqual(before.updatedAt);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test("an executed quote's hold end (expired or rejected: the approval's workflow task lost) changes nothing and says the quote was executed, with its request key", async () => {
    const { api } = await h.platform();
    const p = await payer(api, '003');
    const q = (await api.post('/quotes', quoteBody(p.usd, p.bank))).body;
    expect((await api.post(`/quotes/${q.id}/execute`, undefined, { 'Idempotency-Key': 'exec-1' })).status).toBe(200);
    const before = await h.orm.em.fork().findOneOrFail(Quote, { id: q.id });
    for (const outcome of ['EXPIRED', 'REJECTED'] as const) {
      const ended = await endHeldExecution(h.orm.em.fork(), { quoteId: q.id, outcome, gate: 'approval' }, EXECUTION_GATES);
      expect(ended).toEqual({ events: [], ended: false, executedAlready: { requestKey: before.executionKey } });
    }
    const after = await h.orm.em.fork().findOneOrFail(Quote, { id: q.id });
    expect(after.status).toBe('PROCESSING');
    expect(after.updatedAt).toEqual(before.updatedAt);
    expect(await transactionOf(api, q.transactionId)).toMatchObject({ status: 'PROCESSING' });
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('a quote whose workflow never started is expired by the sweep once overdue', async () => {
    const { api, platform } = await h.platform();
    const p = await payer(api);
    const q = (await api.post('/quotes', quoteBody(p.usd, p.bank))).body;
    // As if the workflow had never started: terminate it and push the expiry into the past.
    await h.temporal.workflow.getHandle(q.transactionId).terminate('test: stranded');
    await h.orm.em.fork().nativeUpdate(Quote, { id: q.id }, { expiresAt: new Date(Date.now() - 120_000) });
    expect(await startStrandedOf(h.orm, h.temporal, strandedQuotes, { taskQueue: h.taskQueue, platformId: platform.id })).toContain(q.id);
    const expired = await eventually(
      () => api.get(`/quotes/${q.id}`).then((r) => r.body),
      (b) => b.status === 'EXPIRED',
    );
    expect(expired.status).toBe('EXPIRED');
    expect(await transactionOf(api, q.transactionId)).toMatchObject({ status: 'EXPIRED', failureReason: 'QUOTE_EXPIRED' });
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'OUTGOING_PAYMENT.EXPIRED' && w.body.data.id === q.transactionId));
  });

  test('to a UMA address: the lookup is required and must match; mandatory payer fields; the receiver is credited', async () => {
    const { api, uma: umaOf } = await h.platform();
    const p = await payer(api);
    const receiver = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: `r-${Math.random()}`,
      fullName: 'Bob Receiver',
      umaAddress: umaOf(`bob.${Date.now()}`),
    });
    const uma = receiver.body.umaAddress as string;
    const destination = { destinationType: 'UMA_ADDRESS', umaAddress: uma, currency: 'EUR' };
    const base = { ...quoteBody(p.usd, p.bank), destination };
    const noLookup = await api.post('/quotes', { ...base, lookupId: 'Lookup:00000000-0000-4000-8000-000000000000' });
    expect(noLookup.status).toBe(400);
    expect(noLookup.body.details.errors[0]).toMatchObject({ field: 'lookupId', constraint: { rule: 'exists' } });
    const lookup = await api.get(`/receiver/uma/${encodeURIComponent(uma)}?customerId=${encodeURIComponent(p.customerId)}`);
    expect(lookup.status).toBe(200);
    const mandatory = (lookup.body.requiredPayerDataFields as { name: string; mandatory: boolean }[]).filter((f) => f.mandatory).map((f) => f.name);
    expect(mandatory).toContain('FULL_NAME');
    const missing = await api.post('/quotes', { ...base, lookupId: lookup.body.lookupId });
    expect(missing.status).toBe(400);
    expect(missing.body.details.errors.map((e: { field: string }) => e.field)).toContain('senderCustomerInfo.FULL_NAME');
    const created = await api.post('/quotes', {
      ...base,
      lookupId: lookup.body.lookupId,
      senderCustomerInfo: Object.fromEntries(mandatory.map((f) => [f, 'Jane Doe'])),
    });
    expect(created.status).toBe(201);
    expect(created.body.destination).toEqual(destination);
    await api.post(`/quotes/${created.body.id}/execute`);
    const done = await eventually(
      () => transactionOf(api, created.body.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect(done.destination).toMatchObject({ destinationType: 'UMA_ADDRESS', umaAddress: uma, currency: 'EUR' });
    expect(done.destination.accountId).toBeUndefined();
    const receiverAccounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(receiver.body.id)}&currency=EUR`);
    expect(receiverAccounts.body.data[0].balance.amount).toBe(created.body.totalReceivingAmount);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('Idempotency-Key: a repeated create answers the same quote; immediatelyExecute creates and executes in one call', async () => {
    const { api } = await h.platform();
    const p = await payer(api);
    const first = await api.post('/quotes', quoteBody(p.usd, p.bank), { 'Idempotency-Key': 'quote-1' });
    const again = await api.post('/quotes', quoteBody(p.usd, p.bank), { 'Idempotency-Key': 'quote-1' });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const executedTwice = await Promise.all([0, 1].map(() => api.post(`/quotes/${first.body.id}/execute`, undefined, { 'Idempotency-Key': 'exec-1' })));
    expect(executedTwice.map((r) => r.status)).toEqual([200, 200]);
    expect(executedTwice[0]!.body.id).toBe(executedTwice[1]!.body.id);
    const immediate = await api.post('/quotes', { ...quoteBody(p.usd, p.bank), immediatelyExecute: true });
    expect(immediate.status).toBe(201);
    expect(['PROCESSING', 'COMPLETED']).toContain(immediate.body.status);
    await eventually(
      () => transactionOf(api, immediate.body.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    await eventually(
      () => transactionOf(api, first.body.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    expect(await balances(api, p.usd)).toEqual({ available: 80_000, total: 80_000 });
  });

  test('deprecated POST /transfer-out: same currency only, served by a quote executed at once, with a Deprecation header', async () => {
    const { api } = await h.platform();
    const p = await payer(api);
    const crossCurrency = await api.post('/transfer-out', { source: { accountId: p.usd }, destination: { accountId: p.bank }, amount: 1_000 });
    expect(crossCurrency.status).toBe(400);
    expect(crossCurrency.headers.deprecation).toBe('true');
    expect(crossCurrency.body.details.errors[0]).toMatchObject({ field: 'destination.accountId', constraint: { rule: 'sameCurrency' } });
    const usdBank = await api.post('/customers/external-accounts', {
      customerId: p.customerId,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        routingNumber: '021000021',
        accountNumber: '55501234',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' },
      },
    });
    const pending = await api.post('/transfer-out', { source: { accountId: p.usd }, destination: { accountId: usdBank.body.id }, amount: 1_000 });
    expect(pending.status).toBe(409);
    expect(pending.body.code).toBe('BANK_ACCOUNT_VALIDATION_PENDING');
    await eventually(
      () => api.get(`/customers/external-accounts/${usdBank.body.id}`).then((r) => r.body.status),
      (s) => s === 'ACTIVE',
      30_000,
    );
    const sent = await api.post('/transfer-out', {
      source: { accountId: p.usd },
      destination: { accountId: usdBank.body.id, paymentRail: 'ACH' },
      amount: 1_000,
      remittanceInformation: 'INV-1',
    });
    expect(sent.status).toBe(201);
    expect(sent.headers.link).toContain('rel="successor-version"');
    expect(sent.body).toMatchObject({
      type: 'OUTGOING',
      sentAmount: { amount: 1_000, currency: { code: 'USD' } },
      receivedAmount: { currency: { code: 'USD' } },
      paymentRail: 'ACH',
    });
    const done = await eventually(
      () => transactionOf(api, sent.body.id),
      (t) => t.status === 'COMPLETED',
    );
    expect(done.sentAmount.amount).toBe(1_000);
    expect(done.receivedAmount.amount).toBe(1_000 - done.fees);
  }, 60_000);

  test('corridor rules: limits, currencies the service cannot send, purpose of payment, platform fee overrides', async () => {
    const { api } = await h.platform();
    const p = await payer(api);
    const codeOf = async (body: Record<string, unknown>) => {
      const res = await api.post('/quotes', body);
      expect(res.status).toBe(400);
      return res.body.code as string;
    };
    // USD corridors: at least 5.00 and at most 100,000.00 sent.
    expect(await codeOf(quoteBody(p.usd, p.bank, 100))).toBe('AMOUNT_OUT_OF_RANGE');
    expect(await codeOf(quoteBody(p.usd, p.bank, 10_000_001))).toBe('TRANSACTION_SIZE_LIMIT_EXCEEDED');
    expect(await codeOf({ ...quoteBody(p.usd, p.bank), source: { sourceType: 'REALTIME_FUNDING', currency: 'MXN' } })).toBe('INVALID_CURRENCY');
    const inr = await api.post('/customers/external-accounts', {
      customerId: p.customerId,
      currency: 'INR',
      accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'jane.doe@okbank', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } },
    });
    expect(inr.status).toBe(201);
    const noPurpose = await api.post('/quotes', quoteBody(p.usd, inr.body.id));
    expect(noPurpose.status).toBe(400);
    expect(noPurpose.body.details.errors[0]).toMatchObject({ field: 'purposeOfPayment', constraint: { rule: 'required' } });
    expect((await api.post('/quotes', { ...quoteBody(p.usd, inr.body.id), purposeOfPayment: 'GIFT' })).status).toBe(201);
    // An override applies to USD sources only, and is what the quote charges.
    const override = { platformFixedFee: { amount: 50, currency: 'USD' }, platformVariableFeeBps: 100 };
    const withOverride = await api.post('/quotes', { ...quoteBody(p.usd, p.bank), platformFeeOverride: override });
    expect(withOverride.status).toBe(201);
    expect(withOverride.body.platformFeesIncluded).toBe(50 + 100);
    const eurSource = await api.post('/quotes', {
      ...quoteBody(p.eur, p.bank),
      platformFeeOverride: { ...override, platformFixedFee: { amount: 50, currency: 'EUR' } },
    });
    expect(eurSource.status).toBe(400);
    expect(eurSource.body.details.errors[0].field).toBe('platformFeeOverride');
  });

  test('EU platforms: a wallet whose ownership is unproven takes transfers below EUR 1,000 only', async () => {
    const { api } = await h.platform({ region: 'EU', counterpartyInformationRequired: true });
    const customer = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: `eu-${Math.random()}`,
      fullName: 'Jane Doe',
      phoneNumber: '+4915112345678',
    });
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&currency=EUR`);
    const eur = accounts.body.data[0].id as string;
    await api.post(`/sandbox/internal-accounts/${eur}/fund`, { amount: 500_000 });
    const wallet = await api.post('/customers/external-accounts', {
      customerId: customer.body.id,
      currency: 'USDC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'BASE_WALLET', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
    });
    expect(wallet.body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    const small = await api.post('/quotes', quoteBody(eur, wallet.body.id, 50_000));
    expect(small.status).toBe(201);
    // An EU customer authorizes its payments (SCA): without a verified phone there is no factor to do it with.
    const unauthorizable = await api.post(`/quotes/${small.body.id}/execute`);
    expect([unauthorizable.status, unauthorizable.body.details?.errors?.[0]?.field]).toEqual([400, 'scaFactor']);
    await api.post(`/customers/${customer.body.id}/verify-phone`).expect(204);
    await api.post(`/customers/${customer.body.id}/verify-phone/confirm`, { code: '123456' }).expect(200);
    const taken = await api.post(`/quotes/${small.body.id}/execute`);
    expect([taken.status, taken.body.status]).toEqual([200, 'PENDING_AUTHORIZATION']);
    const large = await api.post('/quotes', quoteBody(eur, wallet.body.id, 150_000));
    expect(large.status).toBe(400);
    expect(large.body.code).toBe('EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED');
  });
});

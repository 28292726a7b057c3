import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Customer } from '../../src/contexts/customers/entities';
import { Quote } from '../../src/contexts/payments/entities';
import { strandedChallenges } from '../../src/contexts/payments/services/stranded-challenges';
import { startStrandedOf } from '../../src/temporal/start-stranded';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';
import { newId } from '../../src/domain/ids';
import { scaCustomer } from '../support/sca/fixtures';
import { SANDBOX_CODE } from '../support/sca/sca-client';

// Strong Customer Authentication of payments: real-time quotes challenged before their payment
// instructions, account-funded executions held by the scaAuthorization gate until authorized,
// the challenge's workflow (attempts, resend, expiry), trusted beneficiaries, and customers
// outside SCA regions untouched.
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

/** A customer of an EU platform (an SCA region) with a verified phone (SMS_OTP) and an SCA login, its EUR account funded, and a EUR beneficiary. */
async function euPayer(options: { login?: boolean; funds?: number } = {}) {
  // What the customer's app does: verify the phone (SMS_OTP), then log in with it.
  const { client: sca, customerId, ...p } = await scaCustomer(h, { loggedIn: options.login !== false });
  const eur = await accountOf(p.api, customerId, 'EUR');
  if (options.funds !== 0) expect((await p.api.post(`/sandbox/internal-accounts/${eur}/fund`, { amount: options.funds ?? 100_000 })).status).toBe(200);
  const bank = await p.api.post('/customers/external-accounts', { customerId, ...eurAccount(ibanOf('DE', '370400440532013999')) });
  expect(bank.status).toBe(201);
  return { ...p, customerId, eur, beneficiary: bank.body.id as string, sca };
}

async function accountOf(api: Api, customerId: string, currency: string): Promise<string> {
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=${currency}`);
  return accounts.body.data[0].id as string;
}

const balanceOf = async (api: Api, accountId: string) =>
  (await api.get(`/customers/internal-accounts?limit=100`)).body.data.find((a: { id: string }) => a.id === accountId).balance.amount as number;
const transactionOf = (api: Api, id: string) => api.get(`/transactions/${id}`).then((r) => r.body);
const hooksOf = (transactionId: string) => h.receiver.received.filter((w) => w.body.data?.id === transactionId).map((w) => w.body.type as string);

async function accountQuote(api: Api, from: string, to: string, amount = 10_000) {
  const quote = await api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: from },
    destination: { destinationType: 'ACCOUNT', accountId: to },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
  });
  expect(quote.status).toBe(201);
  return quote.body as { id: string; transactionId: string; totalSendingAmount: number };
}

/** An account-funded payout executed and held for its SCA authorization. */
async function heldPayout(payer: Awaited<ReturnType<typeof euPayer>>) {
  const quote = await accountQuote(payer.api, payer.eur, payer.beneficiary);
  const executed = await payer.api.post(`/quotes/${quote.id}/execute`, undefined, { 'Idempotency-Key': `exec-${quote.id}` });
  expect(executed.status).toBe(200);
  return { quote, executed };
}

const authorize = (api: Api, quoteId: string, body: Record<string, unknown> = { code: SANDBOX_CODE }) => api.post(`/quotes/${quoteId}/authorize`, body);

describe('a real-time quote of an EU customer', () => {
  test('is answered 202 PENDING_AUTHORIZATION with an SMS_OTP challenge and no payment instructions; authorized, it is PENDING with them', async () => {
    const payer = await euPayer({ funds: 0 });
    const created = await payer.api.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId: payer.customerId },
      destination: { destinationType: 'ACCOUNT', accountId: payer.beneficiary },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      status: 'PENDING_AUTHORIZATION',
      scaChallenge: { id: expect.stringMatching(/^ScaChallenge:/), factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose: 'PAYOUT' },
    });
    expect(created.body.paymentInstructions).toBeUndefined();
    expect(await transactionOf(payer.api, created.body.transactionId)).toMatchObject({ status: 'PENDING_AUTHORIZATION' });
    // Funds sent before the authorization are refused: there were no instructions to send them by.
    expect((await payer.api.post('/sandbox/send', { quoteId: created.body.id, currencyCode: 'EUR' })).status).toBe(409);

    const authorized = await authorize(payer.api, created.body.id);
    expect(authorized.status).toBe(200);
    expect(authorized.body.status).toBe('PENDING');
    expect(authorized.body.scaChallenge).toBeUndefined();
    expect(authorized.body.paymentInstructions).toEqual(expect.arrayContaining([expect.objectContaining({ accountOrWalletInfo: expect.any(Object) })]));
    expect((await payer.api.get(`/quotes/${created.body.id}`)).body.paymentInstructions).toEqual(authorized.body.paymentInstructions);
    // Authorized once: nothing is pending any more.
    expect((await authorize(payer.api, created.body.id)).status).toBe(409);
    // Now the funds pay it.
    expect((await payer.api.post('/sandbox/send', { quoteId: created.body.id, currencyCode: 'EUR' })).status).toBe(200);
  });

  test('a cross-currency one needs two authorizations, the conversion then the payout (a new challenge each), then advances', async () => {
    const payer = await euPayer({ funds: 0 });
    const created = await payer.api.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: payer.customerId },
      destination: { destinationType: 'ACCOUNT', accountId: payer.beneficiary },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    expect(created.status).toBe(202);
    expect(created.body.scaChallenge.purpose).toBe('FX_CONVERSION');
    const first = await authorize(payer.api, created.body.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'PENDING_AUTHORIZATION', scaChallenge: { purpose: 'PAYOUT' } });
    expect(first.body.scaChallenge.id).not.toBe(created.body.scaChallenge.id);
    expect(first.body.paymentInstructions).toBeUndefined();
    const second = await authorize(payer.api, created.body.id);
    expect(second.status).toBe(200);
    expect(second.body.status).toBe('PENDING');
    expect(second.body.paymentInstructions).toBeDefined();
  });

  test('TOTP is refused as its factor (it cannot carry dynamic linking); PASSKEY is taken when asked and enrolled', async () => {
    const payer = await euPayer({ funds: 0 });
    const body = (scaFactor: string) => ({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId: payer.customerId },
      destination: { destinationType: 'ACCOUNT', accountId: payer.beneficiary },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
      scaFactor,
    });
    const totp = await payer.api.post('/quotes', body('TOTP'));
    expect(totp.status).toBe(400);
    expect(totp.body.details.errors).toEqual([expect.objectContaining({ field: 'scaFactor' })]);

    await payer.sca.enrolPasskey();
    const passkey = await payer.api.post('/quotes', body('PASSKEY'));
    expect(passkey.status).toBe(202);
    expect(passkey.body.scaChallenge).toMatchObject({ factor: 'PASSKEY', availableFactors: ['SMS_OTP', 'PASSKEY'] });
    const options = passkey.body.scaChallenge.passkeyAssertionOptions;
    const origin = passkey.body.scaChallenge.passkeyAllowedOrigins[0];
    // A passkey has no code to re-send.
    expect((await payer.api.post(`/quotes/${passkey.body.id}/authorize/resend`)).status).toBe(409);
    const authorized = await authorize(payer.api, passkey.body.id, { passkeyAssertion: payer.sca.authenticator.assert(options, origin), origin });
    expect(authorized.status).toBe(200);
    expect(authorized.body.status).toBe('PENDING');
  });
});

describe('an account-funded payout of an EU customer', () => {
  test('execute answers 200 PENDING_AUTHORIZATION with one challenge: nothing moves, the webhook says so, another execute is 409, a retry the same answer', async () => {
    const payer = await euPayer();
    const { quote, executed } = await heldPayout(payer);
    expect(executed.body).toMatchObject({ id: quote.id, status: 'PENDING_AUTHORIZATION', scaChallenge: { factor: 'SMS_OTP', purpose: 'PAYOUT' } });
    expect(await transactionOf(payer.api, quote.transactionId)).toMatchObject({ status: 'PENDING_AUTHORIZATION' });
    expect(await balanceOf(payer.api, payer.eur)).toBe(100_000);
    await h.receiver.waitFor(() => hooksOf(quote.transactionId).includes('OUTGOING_PAYMENT.PENDING_AUTHORIZATION'));
    const retried = await payer.api.post(`/quotes/${quote.id}/execute`, undefined, { 'Idempotency-Key': `exec-${quote.id}` });
    expect([retried.status, retried.text]).toEqual([200, executed.text]);
    expect((await payer.api.post(`/quotes/${quote.id}/execute`, undefined, { 'Idempotency-Key': 'another' })).status).toBe(409);
    expect((await payer.api.get(`/quotes/${quote.id}`)).body.scaChallenge).toEqual(executed.body.scaChallenge);
  });

  test('authorize releases it to PROCESSING once: one ledger hold, the payout completes, webhooks PENDING_AUTHORIZATION → PROCESSING → COMPLETED', async () => {
    const payer = await euPayer();
    const { quote } = await heldPayout(payer);
    const authorized = await authorize(payer.api, quote.id);
    expect(authorized.status).toBe(200);
    expect(authorized.body.status).toBe('PROCESSING');
    expect(authorized.body.scaChallenge).toBeUndefined();
    expect(await balanceOf(payer.api, payer.eur)).toBe(100_000 - quote.totalSendingAmount);
    await eventually(
      () => transactionOf(payer.api, quote.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    await h.receiver.waitFor(() => hooksOf(quote.transactionId).includes('OUTGOING_PAYMENT.COMPLETED'));
    expect(hooksOf(quote.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.PENDING_AUTHORIZATION',
      'OUTGOING_PAYMENT.PROCESSING',
      'OUTGOING_PAYMENT.COMPLETED',
    ]);
    expect((await authorize(payer.api, quote.id)).status).toBe(409);
    expect(await balanceOf(payer.api, payer.eur)).toBe(100_000 - quote.totalSendingAmount);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  });

  test('a wrong code is 400 INVALID_INPUT naming the code, changes nothing, and the right code still authorizes', async () => {
    const payer = await euPayer();
    const { quote } = await heldPayout(payer);
    const wrong = await authorize(payer.api, quote.id, { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field: 'code' })] } });
    expect((await payer.api.get(`/quotes/${quote.id}`)).body.status).toBe('PENDING_AUTHORIZATION');
    expect(await balanceOf(payer.api, payer.eur)).toBe(100_000);
    expect((await authorize(payer.api, quote.id)).body.status).toBe('PROCESSING');
  });

  test('five wrong codes void the challenge: 429 RATE_LIMITED after, and the payment FAILED SCA_NOT_COMPLETED with nothing moved', async () => {
    const payer = await euPayer();
    const { quote } = await heldPayout(payer);
    for (let i = 0; i < 5; i++) expect((await authorize(payer.api, quote.id, { code: '000000' })).status).toBe(400);
    const failed = await eventually(
      () => transactionOf(payer.api, quote.transactionId),
      (t) => t.status === 'FAILED',
    );
    expect(failed.failureReason).toBe('SCA_NOT_COMPLETED');
    expect(await balanceOf(payer.api, payer.eur)).toBe(100_000);
    expect([423, 409, 429]).toContain((await authorize(payer.api, quote.id)).status);
  });

  test('a customer with no factor to authorize with (phone not verified) is refused at once: 400 on scaFactor, nothing held or recorded', async () => {
    const payer = await euPayer();
    await h.orm.em.fork().nativeUpdate(Customer, { id: payer.customerId }, { contactVerification: { email: 'VERIFIED', phone: 'PENDING' } });
    const quote = await accountQuote(payer.api, payer.eur, payer.beneficiary);
    const executed = await payer.api.post(`/quotes/${quote.id}/execute`);
    expect([executed.status, executed.body.details.errors[0].field]).toEqual([400, 'scaFactor']);
    expect((await payer.api.get(`/quotes/${quote.id}`)).body.status).toBe('PENDING');
    const realTime = await payer.api.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId: payer.customerId },
      destination: { destinationType: 'ACCOUNT', accountId: payer.beneficiary },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    expect([realTime.status, realTime.body.details.errors[0].field]).toEqual([400, 'scaFactor']);
  });

  test('without an SCA login the authorization is 409 SCA_SESSION_REQUIRED', async () => {
    const payer = await euPayer({ login: false });
    const { quote } = await heldPayout(payer);
    const refused = await authorize(payer.api, quote.id);
    expect([refused.status, refused.body.code]).toEqual([409, 'SCA_SESSION_REQUIRED']);
  });

  test('resend: 204, the challenge and its expiresAt unchanged; after three, 429 RATE_LIMITED', async () => {
    const payer = await euPayer();
    const { quote, executed } = await heldPayout(payer);
    for (let i = 0; i < 3; i++) expect((await payer.api.post(`/quotes/${quote.id}/authorize/resend`)).status).toBe(204);
    expect((await payer.api.get(`/quotes/${quote.id}`)).body.scaChallenge).toEqual(executed.body.scaChallenge);
    const tooMany = await payer.api.post(`/quotes/${quote.id}/authorize/resend`);
    expect([tooMany.status, tooMany.body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(tooMany.headers['retry-after']).toBeDefined();
    expect((await authorize(payer.api, quote.id)).body.status).toBe('PROCESSING');
  });

  test('a challenge that lapses unsatisfied: FAILED SCA_NOT_COMPLETED, the ledger unchanged, its webhook; authorize after is 409', async () => {
    const payer = await euPayer();
    h.deps.scaChallengeTtlMs = 2_000;
    let held: Awaited<ReturnType<typeof heldPayout>>;
    try {
      held = await heldPayout(payer);
    } finally {
      delete h.deps.scaChallengeTtlMs;
    }
    const { quote } = held;
    const failed = await eventually(
      () => transactionOf(payer.api, quote.transactionId),
      (t) => t.status === 'FAILED',
      30_000,
    );
    expect(failed.failureReason).toBe('SCA_NOT_COMPLETED');
    expect((await payer.api.get(`/quotes/${quote.id}`)).body.status).toBe('FAILED');
    expect(await balanceOf(payer.api, payer.eur)).toBe(100_000);
    await h.receiver.waitFor(() => hooksOf(quote.transactionId).includes('OUTGOING_PAYMENT.FAILED'));
    expect(hooksOf(quote.transactionId)).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION', 'OUTGOING_PAYMENT.FAILED']);
    expect((await authorize(payer.api, quote.id)).status).toBe(409);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  }, 60_000);

  test('a challenge recorded whose workflow never started is started by the minute sweep once its time is up: FAILED SCA_NOT_COMPLETED', async () => {
    const payer = await euPayer();
    const { quote, executed } = await heldPayout(payer);
    // As if the process had died between recording the challenge and starting its workflow.
    const em = h.orm.em.fork();
    const row = await em.findOneOrFail(Quote, { id: quote.id });
    const issuedAt = Date.now() - 10 * 60_000;
    const recorded = { ...row.scaChallenge!, id: newId('ScaChallenge'), expiresAt: new Date(issuedAt + 5 * 60_000).toISOString() };
    await em.nativeUpdate(Quote, { id: quote.id }, { scaChallenge: recorded, updatedAt: new Date(issuedAt) });
    expect(await startStrandedOf(h.orm, h.temporal, strandedChallenges, { taskQueue: h.taskQueue, platformId: payer.platform.id })).toEqual([recorded.id]);
    const failed = await eventually(
      () => transactionOf(payer.api, quote.transactionId),
      (t) => t.status === 'FAILED',
    );
    expect(failed.failureReason).toBe('SCA_NOT_COMPLETED');
    expect(await balanceOf(payer.api, payer.eur)).toBe(100_000);
    expect(executed.body.scaChallenge.id).not.toBe(recorded.id);
  });

  test('50 concurrent authorizations release the payment once', async () => {
    const payer = await euPayer();
    const { quote } = await heldPayout(payer);
    const answers = await Promise.all(Array.from({ length: 50 }, () => authorize(payer.api, quote.id)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(await balanceOf(payer.api, payer.eur)).toBe(100_000 - quote.totalSendingAmount);
    await eventually(
      () => transactionOf(payer.api, quote.transactionId),
      (t) => t.status === 'COMPLETED',
    );
    await h.receiver.waitFor(() => hooksOf(quote.transactionId).includes('OUTGOING_PAYMENT.COMPLETED'));
    expect(hooksOf(quote.transactionId).filter((t) => t === 'OUTGOING_PAYMENT.PROCESSING')).toHaveLength(1);
    expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
  }, 60_000);
});

describe('trusted beneficiaries', () => {
  test('trust with a proof: payments to it skip the challenge; it cannot be deleted until untrusted with a proof', async () => {
    const payer = await euPayer();
    const path = `/customers/external-accounts/${payer.beneficiary}`;
    const started = await payer.api.post(`${path}/trust`);
    expect(started.status).toBe(200);
    expect(started.body.scaChallenge).toMatchObject({ id: expect.stringMatching(/^ScaChallenge:/), factor: 'SMS_OTP' });
    const wrong = await payer.api.post(`${path}/trust/confirm`, { challengeId: started.body.scaChallenge.id, code: '000000' });
    expect(wrong.status).toBe(400);
    const confirmed = await payer.api.post(`${path}/trust/confirm`, { challengeId: started.body.scaChallenge.id, code: SANDBOX_CODE });
    expect([confirmed.status, confirmed.body]).toEqual([200, { trusted: true }]);

    const quote = await accountQuote(payer.api, payer.eur, payer.beneficiary);
    const executed = await payer.api.post(`/quotes/${quote.id}/execute`);
    expect(executed.status).toBe(200);
    expect(executed.body.status).toBe('PROCESSING');
    expect(executed.body.scaChallenge).toBeUndefined();

    const refused = await payer.api.delete(path);
    expect([refused.status, refused.body.code]).toEqual([409, 'BENEFICIARY_TRUSTED']);
    const untrust = await payer.api.post(`${path}/untrust`);
    expect(untrust.status).toBe(200);
    const untrusted = await payer.api.post(`${path}/untrust/confirm`, { challengeId: untrust.body.scaChallenge.id, code: SANDBOX_CODE });
    expect([untrusted.status, untrusted.body]).toEqual([200, { trusted: false }]);
    // A proof answers its own challenge once: the trust challenge does not untrust.
    expect((await payer.api.post(`${path}/trust/confirm`, { challengeId: started.body.scaChallenge.id, code: SANDBOX_CODE })).status).toBe(400);
    expect((await payer.api.delete(path)).status).toBe(204);
  });

  test('a challenge issued for one beneficiary does not trust another (it is bound to the account)', async () => {
    const payer = await euPayer();
    const other = await payer.api.post('/customers/external-accounts', { customerId: payer.customerId, ...eurAccount(ibanOf('DE', '370400440532013998')) });
    const started = await payer.api.post(`/customers/external-accounts/${payer.beneficiary}/trust`);
    const misused = await payer.api.post(`/customers/external-accounts/${other.body.id}/trust/confirm`, {
      challengeId: started.body.scaChallenge.id,
      code: SANDBOX_CODE,
    });
    expect(misused.status).toBe(400);
  });
});

describe('customers outside SCA regions', () => {
  async function usPayer() {
    const p = await h.platform();
    const customer = await p.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `us-${Math.random()}`, fullName: 'Jane Doe' });
    const usd = await accountOf(p.api, customer.body.id, 'USD');
    expect((await p.api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 100_000 })).status).toBe(200);
    const bank = await p.api.post('/customers/external-accounts', { customerId: customer.body.id, ...eurAccount() });
    return { ...p, customerId: customer.body.id as string, usd, bank: bank.body.id as string };
  }

  test('authorize, resend, trust and untrust are 409 for them', async () => {
    const payer = await usPayer();
    const quote = await accountQuote(payer.api, payer.usd, payer.bank);
    expect((await authorize(payer.api, quote.id)).status).toBe(409);
    expect((await payer.api.post(`/quotes/${quote.id}/authorize/resend`)).status).toBe(409);
    expect((await payer.api.post(`/customers/external-accounts/${payer.bank}/trust`)).status).toBe(409);
    expect((await payer.api.post(`/customers/external-accounts/${payer.bank}/untrust`)).status).toBe(409);
  });

  test("their payout costs the engine what it did before: the recorded payout's events, workflow tasks and no activity task", async () => {
    const payer = await usPayer();
    const quote = await accountQuote(payer.api, payer.usd, payer.bank);
    const executed = await payer.api.post(`/quotes/${quote.id}/execute`, undefined, { 'Idempotency-Key': `exec-${quote.id}` });
    expect(executed.body.status).toBe('PROCESSING');
    const handle = h.temporal.workflow.getHandle(quote.transactionId);
    await handle.result();
    const events = (await handle.fetchHistory()).events ?? [];
    const recorded = historyFromJSON(JSON.parse(readFileSync(join(__dirname, '../histories/payment/v1-payout-completed.json'), 'utf8'))).events ?? [];
    const shape = (list: typeof events) => ({
      events: list.length,
      workflowTasks: list.filter((e) => e.workflowTaskCompletedEventAttributes).length,
      activityTasks: list.filter((e) => e.activityTaskScheduledEventAttributes).length,
      markers: list.filter((e) => e.markerRecordedEventAttributes).length,
      signals: list.filter((e) => e.workflowExecutionSignaledEventAttributes).length,
      children: list.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes).length,
    });
    // How many workflow tasks a run takes depends on timing (an update and the next step may share
    // one); what the workflow asks of the engine does not: the same events besides workflow tasks.
    const { events: count, workflowTasks, ...commands } = shape(events);
    const { events: recordedCount, workflowTasks: recordedTasks, ...recordedCommands } = shape(recorded);
    expect(commands).toEqual(recordedCommands);
    expect(count).toBeLessThanOrEqual(recordedCount);
    expect(workflowTasks).toBeLessThanOrEqual(recordedTasks);
    const besidesTasks = (list: typeof events) =>
      list
        .filter((e) => !e.workflowTaskScheduledEventAttributes && !e.workflowTaskStartedEventAttributes && !e.workflowTaskCompletedEventAttributes)
        .map((e) => e.eventType)
        // Within one workflow task the order of an accepted update and a started timer follows
        // when the update arrived; which events there are does not.
        .sort();
    expect(besidesTasks(events)).toEqual(besidesTasks(recorded));
    expect(commands).toMatchObject({ activityTasks: 0, signals: 0, children: 0 });
  });
});

describe('tenant isolation', () => {
  test("another platform can neither see, authorize, resend nor trust an EU customer's quote or beneficiary", async () => {
    const payer = await euPayer();
    const { quote } = await heldPayout(payer);
    const other = await h.platform({ region: 'EU' });
    expect((await other.api.get(`/quotes/${quote.id}`)).status).toBe(404);
    expect((await authorize(other.api, quote.id)).status).toBe(404);
    expect((await other.api.post(`/quotes/${quote.id}/authorize/resend`)).status).toBe(404);
    expect((await other.api.post(`/customers/external-accounts/${payer.beneficiary}/trust`)).status).toBe(404);
    expect((await other.api.post(`/customers/external-accounts/${payer.beneficiary}/trust/confirm`, { code: SANDBOX_CODE })).status).toBe(404);
    expect((await other.api.delete(`/customers/external-accounts/${payer.beneficiary}`)).status).toBe(404);
    // The owner's quote is still held, untouched.
    expect((await payer.api.get(`/quotes/${quote.id}`)).body.status).toBe('PENDING_AUTHORIZATION');
    expect(await balanceOf(payer.api, payer.eur)).toBe(100_000);
  });
});

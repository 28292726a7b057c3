import { EXECUTION_GATES } from '../../src/contexts/execution-gates';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { Quote, Transaction } from '../../src/contexts/payments/entities';
import { SignedRequest, WALLET_SIGNATURE_GATE } from '../../src/contexts/wallet-auth';
import { walletSignatureGate } from '../../src/contexts/wallet-auth/gates/wallet-signature';
import type { ExecutionGate } from '../../src/domain/execution-gate-contract';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';
import { newDeviceKey, openTestSession, signedHeaders, stamp, type DeviceKey } from '../support/wallet-client';
import { payQuoteOverHttp } from '../support/wallet/http-pay';
import type { AddressInfo } from 'node:net';

// Payments from an embedded wallet (spec §4.3, reference inventory §7.8): the quote carries the
// payload its owner signs; the execute call brings the stamp (executed at once) or is answered 202
// and held until the signed retry; every other way out of a wallet is refused.

// The registered gates, the wallet's holding for 2 s instead of 5 minutes when the quote's
// description is `short-hold` (the hold's expiry, within a test's time).
const shortHold = walletSignatureGate(2);
const GATES: ExecutionGate[] = EXECUTION_GATES.map((gate) =>
  gate.name !== WALLET_SIGNATURE_GATE
    ? gate
    : { name: gate.name, check: (em, subject, context) => (subject.description === 'short-hold' ? shortHold : gate).check(em, subject, context) },
);

let h: Harness;
beforeAll(async () => {
  h = await Harness.start({ executionGates: GATES });
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

const walletQuote = (wallet: string, bank: string, amount = 20_000_000, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: wallet },
  destination: { destinationType: 'ACCOUNT', accountId: bank },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  ...extra,
});

/** A platform with embedded wallets, a funded wallet with a signed-in device, and a quote paying from it. */
async function signedInWalletQuote(extra: Record<string, unknown> = {}) {
  const p = await h.platform({ embeddedWalletsSupported: true });
  const c = await walletCustomer(p.api);
  const { key } = await openTestSession(p.api, h.orm.em.fork(), { platformId: p.platform.id, accountId: c.wallet });
  const created = await p.api.post('/quotes', walletQuote(c.wallet, c.bank, 20_000_000, extra));
  expect(created.status).toBe(201);
  const quote = created.body as {
    id: string;
    transactionId: string;
    totalSendingAmount: number;
    paymentInstructions: { accountOrWalletInfo: { payloadToSign: string } }[];
  };
  return { ...p, ...c, key, quote, payload: quote.paymentInstructions[0]!.accountOrWalletInfo.payloadToSign };
}

const statusOf = async (api: Api, quote: { id: string; transactionId: string }) => ({
  quote: (await api.get(`/quotes/${quote.id}`)).body.status as string,
  transaction: (await api.get(`/transactions/${quote.transactionId}`)).body.status as string,
});
const hooksOf = (transactionId: string) => h.receiver.received.filter((w) => w.body.data?.id === transactionId).map((w) => w.body.type as string);
const auditClean = async () => expect((await runLedgerAudit(h.orm.em.fork())).findings).toEqual([]);
const execute = (api: Api, quoteId: string, headers: Record<string, string> = {}, body?: object) => api.post(`/quotes/${quoteId}/execute`, body, headers);

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

describe('executing with a single-shot stamp over the quote’s payloadToSign', () => {
  test('executes at once: 200 PROCESSING, the funds held once, the payout completes; the reference’s header name works too', async () => {
    const { api, wallet, key, quote, payload } = await signedInWalletQuote();
    const res = await execute(api, quote.id, { 'Grid-Wallet-Signature': stamp(key, payload), 'Idempotency-Key': `x-${quote.id}` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: quote.id, status: 'PROCESSING', transactionId: quote.transactionId });
    expect(await balanceOf(api, wallet)).toBe(50_000_000 - quote.totalSendingAmount);
    await eventually(
      () => statusOf(api, quote),
      (s) => s.transaction === 'COMPLETED',
    );
    await h.receiver.waitFor(() => hooksOf(quote.transactionId).includes('OUTGOING_PAYMENT.COMPLETED'));
    expect(hooksOf(quote.transactionId).sort()).toEqual(['OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING']);
    expect(await balanceOf(api, wallet)).toBe(50_000_000 - quote.totalSendingAmount);
    // Its retry (same key) is answered alike; the stamp does not pay twice.
    const again = await execute(api, quote.id, { 'Svc-Wallet-Signature': stamp(key, payload), 'Idempotency-Key': `x-${quote.id}` });
    expect([again.status, again.body.status]).toEqual([200, 'PROCESSING']);
    expect((await execute(api, quote.id, { 'Svc-Wallet-Signature': stamp(key, payload) })).status).toBe(409);
    expect(await balanceOf(api, wallet)).toBe(50_000_000 - quote.totalSendingAmount);
    await auditClean();
  });

  test.each([
    ['a malformed stamp', 'WALLET_SIGNATURE_MALFORMED', () => 'not-a-stamp'],
    ['a key with no session (wrong key)', 'WALLET_SIGNATURE_INVALID', (_k: DeviceKey, payload: string) => stamp(newDeviceKey(), payload)],
    [
      'a stamp over a tampered payload',
      'WALLET_SIGNATURE_INVALID',
      (k: DeviceKey, payload: string) => stamp(k, payload.replace('"sendingCurrency":"USDB"', '"sendingCurrency":"USD"')),
    ],
    ['the right key, another payload’s signature', 'WALLET_SIGNATURE_INVALID', (k: DeviceKey) => stamp(k, '{"type":"ACTIVITY_TYPE_EXECUTE_QUOTE"}')],
  ])('%s: 401 %s, nothing moves', async (_name, code, stampOf) => {
    const { api, wallet, key, quote, payload } = await signedInWalletQuote();
    const res = await execute(api, quote.id, { 'Svc-Wallet-Signature': stampOf(key, payload) });
    expect([res.status, res.body.code]).toEqual([401, code]);
    expect(await statusOf(api, quote)).toEqual({ quote: 'PENDING', transaction: 'PENDING' });
    expect(await balanceOf(api, wallet)).toBe(50_000_000);
    expect(hooksOf(quote.transactionId)).toEqual([]);
  });

  test('a session of another wallet, or an expired session of this one: 401 WALLET_SIGNATURE_INVALID, nothing moves', async () => {
    const { api, platform, wallet, quote, payload } = await signedInWalletQuote();
    const other = await walletCustomer(api, 0);
    const { key: otherKey } = await openTestSession(api, h.orm.em.fork(), { platformId: platform.id, accountId: other.wallet });
    const byOther = await execute(api, quote.id, { 'Svc-Wallet-Signature': stamp(otherKey, payload) });
    expect([byOther.status, byOther.body.code]).toEqual([401, 'WALLET_SIGNATURE_INVALID']);
    const { key: expired } = await openTestSession(
      api,
      h.orm.em.fork(),
      { platformId: platform.id, accountId: wallet },
      { expiresAt: new Date(Date.now() - 1000) },
    );
    const byExpired = await execute(api, quote.id, { 'Svc-Wallet-Signature': stamp(expired, payload) });
    expect([byExpired.status, byExpired.body.code]).toEqual([401, 'WALLET_SIGNATURE_INVALID']);
    expect(await statusOf(api, quote)).toEqual({ quote: 'PENDING', transaction: 'PENDING' });
    expect(await balanceOf(api, wallet)).toBe(50_000_000);
  });

  test('the wallet docs’ client (docs/wallets-and-sca.md: scripts/wallet-client.ts pay-quote) signs and executes a quote over HTTP', async () => {
    const { api, token, wallet, key, quote } = await signedInWalletQuote();
    const server = h.app.listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/2025-10-13`;
      const paid = await payQuoteOverHttp(base, `${token.tokenId}:${token.clientSecret}`, quote.id, Buffer.from(key.privateKey).toString('hex'));
      expect(paid).toMatchObject({ id: quote.id, status: 'PROCESSING' });
    } finally {
      server.close();
    }
    expect(await balanceOf(api, wallet)).toBe(50_000_000 - quote.totalSendingAmount);
  });

  test('another platform cannot execute the quote, even with the owner’s stamp: 404, nothing moves', async () => {
    const { api, wallet, key, quote, payload } = await signedInWalletQuote();
    const intruder = await h.platform({ embeddedWalletsSupported: true });
    const res = await execute(intruder.api, quote.id, { 'Svc-Wallet-Signature': stamp(key, payload) });
    expect([res.status, res.body.code]).toEqual([404, 'QUOTE_NOT_FOUND']);
    expect(await statusOf(api, quote)).toEqual({ quote: 'PENDING', transaction: 'PENDING' });
    expect(await balanceOf(api, wallet)).toBe(50_000_000);
  });
});

describe('executing without a stamp: 202, held until the signed retry', () => {
  test('202 with a signed request; the payment is held (PENDING_AUTHORIZATION, announced) with nothing moved; the signed retry executes it once', async () => {
    const { api, wallet, key, quote } = await signedInWalletQuote();
    const first = await execute(api, quote.id, { 'Idempotency-Key': `x-${quote.id}` });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:/), expiresAt: expect.any(String) });
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      organizationId: wallet,
      parameters: { quoteId: quote.id, transactionId: quote.transactionId, totalSendingAmount: String(quote.totalSendingAmount) },
      requestId: first.body.requestId,
      type: 'ACTIVITY_TYPE_EXECUTE_QUOTE',
    });
    expect(await statusOf(api, quote)).toEqual({ quote: 'PENDING_AUTHORIZATION', transaction: 'PENDING_AUTHORIZATION' });
    expect(await balanceOf(api, wallet)).toBe(50_000_000);
    await h.receiver.waitFor(() => hooksOf(quote.transactionId).includes('OUTGOING_PAYMENT.PENDING_AUTHORIZATION'));
    const announced = h.receiver.received.find((w) => w.body.data?.id === quote.transactionId && w.body.type === 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION')!;
    expect(announced.body).toMatchObject({
      type: 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION',
      data: { id: quote.transactionId, status: 'PENDING_AUTHORIZATION', quoteId: quote.id, sentAmount: { amount: quote.totalSendingAmount } },
    });
    // The same call again (same key, same body) gets the same challenge; another execute is refused while it waits.
    const repeated = await execute(api, quote.id, { 'Idempotency-Key': `x-${quote.id}` });
    expect([repeated.status, repeated.body.requestId]).toEqual([202, first.body.requestId]);
    expect((await execute(api, quote.id, { 'Idempotency-Key': 'another' })).status).toBe(409);

    const signed = await execute(api, quote.id, { 'Idempotency-Key': `x-${quote.id}`, ...signedHeaders(key, first.body) });
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ id: quote.id, status: 'PROCESSING', transactionId: quote.transactionId });
    expect(await balanceOf(api, wallet)).toBe(50_000_000 - quote.totalSendingAmount);
    await eventually(
      () => statusOf(api, quote),
      (s) => s.transaction === 'COMPLETED',
    );
    await h.receiver.waitFor(() => hooksOf(quote.transactionId).includes('OUTGOING_PAYMENT.COMPLETED'));
    expect(hooksOf(quote.transactionId).sort()).toEqual([
      'OUTGOING_PAYMENT.COMPLETED',
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.PENDING_AUTHORIZATION',
      'OUTGOING_PAYMENT.PROCESSING',
    ]);
    // The request is used: replayed, it is refused and nothing moves again.
    const replayed = await execute(api, quote.id, { 'Idempotency-Key': `x-${quote.id}`, ...signedHeaders(key, first.body) });
    expect([replayed.status, replayed.body.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(await balanceOf(api, wallet)).toBe(50_000_000 - quote.totalSendingAmount);
    await auditClean();
  });

  test('bad signed retries are each their 401 and leave the payment held with nothing moved; the good one then goes through', async () => {
    const { api, platform, wallet, key, quote } = await signedInWalletQuote();
    const first = (await execute(api, quote.id)).body as { payloadToSign: string; requestId: string };
    const other = await walletCustomer(api, 0);
    const { key: otherKey } = await openTestSession(api, h.orm.em.fork(), { platformId: platform.id, accountId: other.wallet });
    const attempts: [string, Record<string, string>, object | undefined, number, string][] = [
      ['tampered body', signedHeaders(key, first), { scaFactor: 'PASSKEY' }, 401, 'WALLET_SIGNATURE_BODY_MISMATCH'],
      ['wrong key', signedHeaders(newDeviceKey(), first), undefined, 401, 'WALLET_SIGNATURE_INVALID'],
      ['another wallet’s session', signedHeaders(otherKey, first), undefined, 401, 'WALLET_SIGNATURE_INVALID'],
      ['a stamp over another payload', signedHeaders(key, { ...first, payloadToSign: `${first.payloadToSign} ` }), undefined, 401, 'WALLET_SIGNATURE_INVALID'],
      ['Request-Id without stamp', { 'Request-Id': first.requestId }, undefined, 401, 'WALLET_SIGNATURE_MISSING'],
      ['malformed stamp', { 'Request-Id': first.requestId, 'Svc-Wallet-Signature': 'eyJub3QiOiJhIHN0YW1wIn0' }, undefined, 401, 'WALLET_SIGNATURE_MALFORMED'],
      ['unknown request', signedHeaders(key, { ...first, requestId: 'Request:00000000-0000-0000-0000-000000000000' }), undefined, 401, 'UNAUTHORIZED'],
    ];
    for (const [name, headers, body, status, code] of attempts) {
      const res = await execute(api, quote.id, headers, body);
      expect([name, res.status, res.body.code]).toEqual([name, status, code]);
    }
    expect(await statusOf(api, quote)).toEqual({ quote: 'PENDING_AUTHORIZATION', transaction: 'PENDING_AUTHORIZATION' });
    expect(await balanceOf(api, wallet)).toBe(50_000_000);
    const signed = await execute(api, quote.id, signedHeaders(key, first));
    expect([signed.status, signed.body.status]).toEqual([200, 'PROCESSING']);
    expect(await balanceOf(api, wallet)).toBe(50_000_000 - quote.totalSendingAmount);
  });

  test('an expired signed request is 401 and approves nothing', async () => {
    const { api, wallet, key, quote } = await signedInWalletQuote();
    const first = (await execute(api, quote.id)).body as { payloadToSign: string; requestId: string };
    await h.orm.em.fork().nativeUpdate(SignedRequest, { id: first.requestId }, { expiresAt: new Date(Date.now() - 1000) });
    const late = await execute(api, quote.id, signedHeaders(key, first));
    expect([late.status, late.body.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(await statusOf(api, quote)).toEqual({ quote: 'PENDING_AUTHORIZATION', transaction: 'PENDING_AUTHORIZATION' });
    expect(await balanceOf(api, wallet)).toBe(50_000_000);
  });

  test('nobody signs in time: the hold expires, the payment is EXPIRED with nothing moved, and a late signed retry approves nothing', async () => {
    const { api, wallet, key, quote } = await signedInWalletQuote({ description: 'short-hold' });
    const first = await execute(api, quote.id);
    expect(first.status).toBe(202);
    const expired = await eventually(
      () => api.get(`/transactions/${quote.transactionId}`).then((r) => r.body),
      (t) => t.status === 'EXPIRED',
      30_000,
    );
    expect(expired.failureReason).toBe('QUOTE_EXPIRED');
    expect((await api.get(`/quotes/${quote.id}`)).body.status).toBe('EXPIRED');
    await h.receiver.waitFor(() => hooksOf(quote.transactionId).includes('OUTGOING_PAYMENT.EXPIRED'));
    expect(hooksOf(quote.transactionId).sort()).toEqual(['OUTGOING_PAYMENT.EXPIRED', 'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION']);
    const late = await execute(api, quote.id, signedHeaders(key, first.body));
    expect(late.status).toBe(409);
    expect(await h.orm.em.fork().findOneOrFail(SignedRequest, { id: first.body.requestId })).toMatchObject({ consumedAt: null });
    expect(await balanceOf(api, wallet)).toBe(50_000_000);
    await auditClean();
  }, 60_000);

  test('100 concurrent signed retries of one request: one executes, the others are refused; one ledger hold', async () => {
    const { api, wallet, key, quote } = await signedInWalletQuote();
    const first = (await execute(api, quote.id)).body as { payloadToSign: string; requestId: string };
    const headers = signedHeaders(key, first);
    const answers = await Promise.all(Array.from({ length: 100 }, () => execute(api, quote.id, headers)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(99);
    expect(await balanceOf(api, wallet)).toBe(50_000_000 - quote.totalSendingAmount);
    await eventually(
      () => statusOf(api, quote),
      (s) => s.transaction === 'COMPLETED',
    );
    expect(await balanceOf(api, wallet)).toBe(50_000_000 - quote.totalSendingAmount);
    await auditClean();
  }, 120_000);
});

import { JournalEntry, LedgerAccount, Posting } from '../../src/contexts/ledger/entities';
import { Transaction } from '../../src/contexts/payments/entities';
import { verifyWebhookSignature } from '../../src/security/webhook-signature';
import { runLedgerAudit } from '../../src/contexts/ledger-audit';
import { createToken } from '../../src/contexts/platforms/services/platforms';
import { eventually } from '../support/eventually';
import { Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

async function customerWithUsdAccount(api: Awaited<ReturnType<Harness['platform']>>['api']) {
  const created = await api.post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `c-${Date.now()}-${Math.random()}`,
    fullName: 'Ada Lovelace',
  });
  expect(created.status).toBe(201);
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(created.body.id)}&currency=USD`);
  expect(accounts.status).toBe(200);
  expect(accounts.body.data).toHaveLength(1);
  return { customerId: created.body.id as string, accountId: accounts.body.data[0].id as string };
}

async function balanceOf(accountId: string): Promise<bigint> {
  return (await h.orm.em.fork().findOneOrFail(LedgerAccount, { id: accountId })).balance;
}

describe('POST /sandbox/internal-accounts/{id}/fund', () => {
  test('credits the account through the ledger, completes the transaction and delivers a signed webhook', async () => {
    const { api } = await h.platform();
    const { customerId, accountId } = await customerWithUsdAccount(api);

    const res = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 12_345 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: accountId,
      customerId,
      balance: { amount: 12_345, currency: { code: 'USD', decimals: 2 } },
      totalBalance: { amount: 12_345 },
    });

    // Ledger: one balanced entry, the account balance equals its postings.
    const em = h.orm.em.fork();
    const tx = await em.findOneOrFail(Transaction, { destination: { accountId } });
    expect(tx).toMatchObject({ status: 'COMPLETED', type: 'INCOMING', receivedAmount: 12_345n, receivedCurrency: 'USD' });
    const entry = await em.findOneOrFail(JournalEntry, { transactionId: tx.id });
    const postings = await em.find(Posting, { entryId: entry.id });
    expect(postings.map((p) => p.amount).reduce((a, b) => a + b, 0n)).toBe(0n);
    expect(postings.find((p) => p.accountId === accountId)?.amount).toBe(12_345n);
    expect(await balanceOf(accountId)).toBe(12_345n);

    // The transaction is visible over the API.
    const got = await api.get(`/transactions/${tx.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: tx.id, status: 'COMPLETED', customerId, receivedAmount: { amount: 12_345, currency: { code: 'USD' } } });

    // INCOMING_PAYMENT.COMPLETED arrives, signed by the sandbox key.
    await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'INCOMING_PAYMENT.COMPLETED' && x.body.data.id === tx.id));
    const hook = h.receiver.ofType('INCOMING_PAYMENT.COMPLETED').find((x) => x.body.data.id === tx.id)!;
    expect(hook.body).toMatchObject({
      type: 'INCOMING_PAYMENT.COMPLETED',
      data: { id: tx.id, status: 'COMPLETED', customerId, receivedAmount: { amount: 12_345 } },
    });
    expect(hook.body.id).toMatch(/^Webhook:[0-9a-f-]{36}$/);
    const key = await api.get('/webhooks/public-key');
    expect(key.body.environment).toBe('SANDBOX');
    expect(verifyWebhookSignature(key.body.publicKeyPem, hook.rawBody, String(hook.headers['x-svc-signature']))).toBe(true);
    expect(verifyWebhookSignature(key.body.publicKeyPem, hook.rawBody.replace('12345', '12346'), String(hook.headers['x-svc-signature']))).toBe(false);

    // The account's balance update is announced too.
    await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && x.body.data.id === accountId));

    // Support staff find the payment by customer id.
    const found = await eventually(
      async () => {
        const ids: string[] = [];
        for await (const wf of h.temporal.workflow.list({ query: `CustomerId = "${customerId}" AND WorkflowType = "incomingPayment"` }))
          ids.push(wf.workflowId);
        return ids;
      },
      (ids) => ids.length > 0,
    );
    expect(found).toEqual([tx.id]);

    const audit = await runLedgerAudit(h.orm.em.fork());
    expect(audit.findings).toEqual([]);
  });

  test('amounts add up exactly across several fundings, including amounts near the maximum', async () => {
    const { api } = await h.platform();
    const { accountId } = await customerWithUsdAccount(api);
    for (const amount of [100_000_000_000, 99_999_999_999, 1]) {
      expect((await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200);
    }
    expect(await balanceOf(accountId)).toBe(200_000_000_000n);
    const res = await api.get(
      `/customers/internal-accounts?customerId=${encodeURIComponent((await api.get(`/customers/internal-accounts`)).body.data[0].customerId)}&currency=USD`,
    );
    expect(res.body.data[0].balance.amount).toBe(200_000_000_000);
  });

  describe('bad input moves no money', () => {
    const cases: [string, string | object, number, string, string?][] = [
      ['malformed JSON', '{"amount": 10', 400, 'INVALID_INPUT', 'body'],
      ['missing amount', {}, 400, 'INVALID_INPUT', 'amount'],
      ['non-integer amount', { amount: 10.5 }, 400, 'INVALID_INPUT', 'amount'],
      ['string amount', { amount: '100' }, 400, 'INVALID_INPUT', 'amount'],
      ['zero amount', { amount: 0 }, 400, 'INVALID_INPUT', 'amount'],
      ['negative amount', { amount: -5 }, 400, 'INVALID_INPUT', 'amount'],
      ['too large amount', { amount: 100_000_000_001 }, 400, 'INVALID_INPUT', 'amount'],
    ];
    test.each(cases)('%s', async (_name, body, status, code, field) => {
      const { api } = await h.platform();
      const { accountId } = await customerWithUsdAccount(api);
      const req = api.post(`/sandbox/internal-accounts/${accountId}/fund`).set('Content-Type', 'application/json');
      const res = await (typeof body === 'string' ? req.send(body) : req.send(body));
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ code, reason: expect.any(String) });
      if (field)
        expect(res.body.details.errors).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ field, constraint: expect.objectContaining({ rule: expect.any(String) }), message: expect.any(String) }),
          ]),
        );
      expect(await balanceOf(accountId)).toBe(0n);
      expect(await h.orm.em.fork().count(Transaction, { destination: { accountId } })).toBe(0);
    });

    test('unknown account is 404', async () => {
      const { api } = await h.platform();
      const res = await api.post('/sandbox/internal-accounts/InternalAccount:00000000-0000-4000-8000-000000000000/fund', { amount: 100 });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    });

    test("another platform's account is 404 and untouched", async () => {
      const owner = await h.platform();
      const { accountId } = await customerWithUsdAccount(owner.api);
      const intruder = await h.platform();
      const res = await intruder.api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 100 });
      expect(res.status).toBe(404);
      expect(await balanceOf(accountId)).toBe(0n);
    });

    test('a production token is refused', async () => {
      const sandbox = await h.platform();
      const { accountId } = await customerWithUsdAccount(sandbox.api);
      const prod = await createToken(h.orm.em.fork(), h.masterKey, sandbox.platform.id, 'PRODUCTION');
      const res = await sandbox.api
        .post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 100 })
        .set('Authorization', `Basic ${Buffer.from(`${prod.tokenId}:${prod.clientSecret}`).toString('base64')}`);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
      expect(await balanceOf(accountId)).toBe(0n);
    });
  });
});

describe('funding a deleted customer', () => {
  test('is 410 CUSTOMER_DELETED and moves nothing', async () => {
    const { api } = await h.platform();
    const { customerId, accountId } = await customerWithUsdAccount(api);
    expect((await api.delete(`/customers/${customerId}`)).status).toBe(200);
    const res = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 100 });
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('CUSTOMER_DELETED');
    expect(await balanceOf(accountId)).toBe(0n);
    expect(await h.orm.em.fork().count(Transaction, { destination: { accountId } })).toBe(0);
  });
});

import { ExternalAccount } from '../../src/contexts/external-accounts/entities';
import { eventually } from '../support/eventually';
import { eurAccount, ibanOf, individual, usdAccount } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';

/**
 * `accountInfo.paymentRails` on registration: the rails the platform wants an account paid by.
 * Accepted when the account type has them and the account's coordinates reach them, returned as
 * given, and the only rails a payout to the account may use.
 */

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

async function fundedCustomer(api: Api) {
  const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `r-${Math.random()}`, fullName: 'Jane Doe' });
  expect(customer.status).toBe(201);
  const customerId = customer.body.id as string;
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`);
  const usd = accounts.body.data.find((a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'USD').id as string;
  expect((await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 100_000 })).status).toBe(200);
  return { customerId, usd };
}

/** The sample app's India account: a UPI id and a bank account, paid only by the rails it names. */
const inrAccount = (paymentRails: string[]) => ({
  currency: 'INR',
  accountInfo: {
    accountType: 'INR_ACCOUNT',
    vpa: 'jane.doe@okaxis',
    accountNumber: '000111222333',
    ifsc: 'HDFC0001234',
    rail: 'NEFT',
    paymentRails,
    beneficiary: individual(),
  },
});

const quoteTo = (source: string, destination: string, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination, ...extra },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 10_000,
  purposeOfPayment: 'GIFT',
});

describe('paymentRails on registration', () => {
  test('the India flow: an INR account registered with paymentRails, quoted, paid by the chosen rail', async () => {
    const { api } = await h.platform();
    const { customerId, usd } = await fundedCustomer(api);
    const created = await api.post('/customers/external-accounts', { customerId, ...inrAccount(['NEFT']) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'ACTIVE', accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'jane.doe@okaxis', paymentRails: ['NEFT'] } });
    expect((await api.get(`/customers/external-accounts/${created.body.id}`)).body.accountInfo.paymentRails).toEqual(['NEFT']);

    // Without the choice, UPI (first of the account's rails) would be used; the platform asked for NEFT.
    const quote = await api.post('/quotes', quoteTo(usd, created.body.id));
    expect(quote.status).toBe(201);
    expect(quote.body).toMatchObject({ receivingCurrency: { code: 'INR' }, destination: { accountId: created.body.id, paymentRail: 'NEFT' } });
    const refused = await api.post('/quotes', quoteTo(usd, created.body.id, { paymentRail: 'UPI' }));
    expect(refused.status).toBe(400);
    expect(refused.body.details.errors).toEqual([expect.objectContaining({ field: 'destination.paymentRail', message: expect.stringContaining('NEFT') })]);

    expect((await api.post(`/quotes/${quote.body.id}/execute`)).status).toBe(200);
    const done = await eventually(
      () => api.get(`/transactions/${quote.body.transactionId}`).then((r) => r.body),
      (t) => t.status === 'COMPLETED',
    );
    expect(done.paymentRail).toBe('NEFT');
  });

  test('a UPI-only INR account: quoted by UPI', async () => {
    const { api } = await h.platform();
    const { customerId, usd } = await fundedCustomer(api);
    const created = await api.post('/customers/external-accounts', {
      customerId,
      currency: 'INR',
      accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'jane@upi', paymentRails: ['UPI'], beneficiary: individual() },
    });
    expect(created.status).toBe(201);
    const quote = await api.post('/quotes', quoteTo(usd, created.body.id));
    expect(quote.status).toBe(201);
    expect(quote.body.destination.paymentRail).toBe('UPI');
  });

  test('a EUR account limited to SEPA_INSTANT is paid by it, and SEPA is refused', async () => {
    const { api } = await h.platform();
    const { customerId, usd } = await fundedCustomer(api);
    const base = eurAccount(ibanOf('DE', '370400440532013999'));
    const created = await api.post('/customers/external-accounts', {
      customerId,
      ...base,
      accountInfo: { ...base.accountInfo, paymentRails: ['SEPA_INSTANT'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.accountInfo.paymentRails).toEqual(['SEPA_INSTANT']);
    expect((await api.post('/quotes', quoteTo(usd, created.body.id))).body.destination.paymentRail).toBe('SEPA_INSTANT');
    expect((await api.post('/quotes', quoteTo(usd, created.body.id, { paymentRail: 'SEPA' }))).status).toBe(400);
  });

  test('without paymentRails every rail of the account stays usable', async () => {
    const { api } = await h.platform();
    const { customerId } = await fundedCustomer(api);
    const { paymentRails: _none, ...info } = inrAccount([]).accountInfo;
    const created = await api.post('/customers/external-accounts', { customerId, currency: 'INR', accountInfo: info });
    expect(created.status).toBe(201);
    expect(created.body.accountInfo.paymentRails).toEqual(['UPI', 'NEFT']);
  });

  test('a rail the account type lacks, or its coordinates cannot reach, is 400 naming the entry; nothing is stored', async () => {
    const { api, platform } = await h.platform();
    const { customerId } = await fundedCustomer(api);
    const imps = await api.post('/customers/external-accounts', { customerId, ...inrAccount(['UPI', 'IMPS']) });
    expect(imps.status).toBe(400);
    expect(imps.body).toMatchObject({ code: 'INVALID_INPUT' });
    expect(imps.body.details.errors).toEqual([
      expect.objectContaining({ field: 'accountInfo.paymentRails.1', constraint: expect.objectContaining({ rule: 'enum' }) }),
    ]);

    // A UPI id only: NEFT needs an account number, IFSC and rail.
    const unreachable = await api.post('/customers/external-accounts', {
      customerId,
      currency: 'INR',
      accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'jane@upi', paymentRails: ['UPI', 'NEFT'], beneficiary: individual() },
    });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.details.errors).toEqual([
      expect.objectContaining({ field: 'accountInfo.paymentRails.1', constraint: expect.objectContaining({ rule: 'reachable' }) }),
    ]);

    // Listed with the other invalid fields, not after they are fixed.
    const withOthers = await api.post('/customers/external-accounts', {
      customerId,
      currency: 'INR',
      accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'jane@upi', paymentRails: ['NEFT'] },
    });
    expect(withOthers.status).toBe(400);
    expect(withOthers.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['accountInfo.beneficiary', 'accountInfo.paymentRails.0']);

    const empty = await api.post('/customers/external-accounts', { customerId, ...inrAccount([]) });
    expect(empty.status).toBe(400);
    expect(empty.body.details.errors).toEqual([
      expect.objectContaining({ field: 'accountInfo.paymentRails', constraint: expect.objectContaining({ rule: 'minItems' }) }),
    ]);

    const twice = await api.post('/customers/external-accounts', { customerId, ...inrAccount(['NEFT', 'NEFT']) });
    expect(twice.status).toBe(400);
    expect(twice.body.details.errors).toEqual([
      expect.objectContaining({ field: 'accountInfo.paymentRails.1', constraint: expect.objectContaining({ rule: 'unique' }) }),
    ]);

    expect(await h.orm.em.fork().count(ExternalAccount, { platformId: platform.id })).toBe(0);
  });

  test('platform accounts take paymentRails too', async () => {
    const { api } = await h.platform();
    const base = usdAccount('123456789');
    const created = await api.post('/platform/external-accounts', { ...base, accountInfo: { ...base.accountInfo, paymentRails: ['WIRE', 'RTP'] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ customerId: null, accountInfo: { paymentRails: ['WIRE', 'RTP'] } });
    const wrong = await api.post('/platform/external-accounts', {
      ...base,
      accountInfo: { ...base.accountInfo, accountNumber: '223456789', paymentRails: ['SEPA'] },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.errors).toEqual([expect.objectContaining({ field: 'accountInfo.paymentRails.0' })]);
  });

  test('a US account limited to WIRE is no pull source (ACH is the pull rail)', async () => {
    const { api } = await h.platform();
    const { customerId, usd } = await fundedCustomer(api);
    const base = usdAccount('123456789');
    const wireOnly = await api.post('/customers/external-accounts', { customerId, ...base, accountInfo: { ...base.accountInfo, paymentRails: ['WIRE'] } });
    expect(wireOnly.status).toBe(201);
    const pull = await api.post('/quotes', { ...quoteTo(wireOnly.body.id, usd), purposeOfPayment: undefined });
    expect(pull.status).toBe(400);
    expect(pull.body.details.errors).toEqual([
      expect.objectContaining({ field: 'source.accountId', constraint: expect.objectContaining({ rule: 'pullable' }) }),
    ]);
  });

  test('wallets and Lightning name no rails: paymentRails there is an unknown field', async () => {
    const { api } = await h.platform({ currencies: ['USD', 'USDC'] });
    const res = await api.post('/platform/external-accounts', {
      currency: 'USDC',
      accountInfo: { accountType: 'BASE_WALLET', address: '0x52908400098527886E0F7030069857D2E4169EE7', paymentRails: ['ACH'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual([
      expect.objectContaining({ field: 'accountInfo', constraint: expect.objectContaining({ rule: 'additionalProperties' }) }),
    ]);
  });
});

import { Lookup } from '../../src/contexts/payments/entities';
import { InternalAccount } from '../../src/contexts/ledger/entities';
import { Platform } from '../../src/contexts/platforms/entities';
import { eurAccount, ibanOf, usdAccount } from '../support/external-account-fixtures';
import { Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];
type Preference = { currency: { code: string }; sendingCurrency: { code: string }; estimatedExchangeRate: number; min: number; max: number };

const LOOKUP_ID = /^Lookup:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING_ACCOUNT = 'ExternalAccount:00000000-0000-4000-8000-000000000000';
const MISSING_CUSTOMER = 'Customer:00000000-0000-4000-8000-000000000000';

let serial = 0;
async function customer(api: Api, extra: Record<string, unknown> = {}) {
  serial += 1;
  const res = await api.post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `lookup-${serial}-${Math.random()}`,
    fullName: 'Jane Doe',
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; umaAddress: string; currencies: string[] };
}

async function externalAccount(
  api: Api,
  customerId: string,
  body: Record<string, unknown> = eurAccount(ibanOf('DE', `3704004405320${String(100000 + serial).slice(-5)}`)),
) {
  const res = await api.post('/customers/external-accounts', { customerId, ...body });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const fields = (res: { body: { details: { errors: { field: string; constraint: { rule: string } }[] } } }) =>
  res.body.details.errors.map((e) => `${e.field}:${e.constraint.rule}`).sort();
const pairs = (list: Preference[]) => list.map((p) => `${p.sendingCurrency.code}>${p.currency.code}`);

async function setCurrencies(platformId: string, change: (p: Platform) => void) {
  const em = h.orm.em.fork();
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  change(platform);
  platform.supportedCurrencies = [...platform.supportedCurrencies];
  await em.flush();
}

describe('GET /receiver/external-account/{accountId}', () => {
  test('a EUR account: every sending currency of the platform priced, a stored lookup, FULL_NAME for the cross-border corridor', async () => {
    const { api, platform } = await h.platform();
    const c = await customer(api);
    const accountId = await externalAccount(api, c.id);
    const before = Date.now();
    const res = await api.get(`/receiver/external-account/${accountId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accountId, lookupId: expect.stringMatching(LOOKUP_ID) });
    expect(pairs(res.body.supportedCurrencies)).toEqual(['USD>EUR', 'EUR>EUR']);
    const [usdEur, eurEur] = res.body.supportedCurrencies as Preference[];
    expect(usdEur!.currency).toEqual({ code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 });
    expect(eurEur!.estimatedExchangeRate).toBe(1);
    for (const p of [usdEur!, eurEur!]) {
      expect(Number.isInteger(p.min) && Number.isInteger(p.max)).toBe(true);
      expect(p.min).toBeGreaterThan(0);
      expect(p.max).toBeGreaterThan(p.min);
    }
    // The rate is the one GET /exchange-rates shows (that one is sending units per receiving unit).
    const rates = await api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR');
    expect(usdEur!.estimatedExchangeRate * rates.body.data[0].exchangeRate).toBeCloseTo(1, 6);
    expect(usdEur!.estimatedExchangeRate).toBeLessThan(0.92); // the corridor's spread is in it
    expect(res.body.requiredPayerDataFields).toEqual([{ name: 'FULL_NAME', mandatory: true }]);
    const expiresAt = Date.parse(res.body.expiresAt);
    expect(expiresAt - before).toBeGreaterThanOrEqual(600_000 - 1_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(600_000);

    const stored = await h.orm.em.fork().findOneOrFail(Lookup, { id: res.body.lookupId });
    expect(stored).toMatchObject({
      platformId: platform.id,
      kind: 'EXTERNAL_ACCOUNT',
      target: accountId,
      receivingCurrencies: ['EUR'],
      requiredPayerDataFields: [{ name: 'FULL_NAME', mandatory: true }],
    });
    expect(stored.expiresAt.toISOString()).toBe(res.body.expiresAt);
    // Every lookup is a new one.
    const again = await api.get(`/receiver/external-account/${accountId}`);
    expect(again.body.lookupId).not.toBe(res.body.lookupId);
  });

  test('a same-currency corridor asks nothing; a platform exchanging counterparty information asks name, birth date and nationality', async () => {
    const plain = await h.platform({ currencies: ['USD'] });
    const account = await externalAccount(plain.api, (await customer(plain.api)).id, usdAccount('123456780'));
    const res = await plain.api.get(`/receiver/external-account/${account}`);
    expect(res.status).toBe(200);
    expect(pairs(res.body.supportedCurrencies)).toEqual(['USD>USD']);
    expect(res.body.requiredPayerDataFields).toEqual([]);

    const travelRule = await h.platform({ currencies: ['USD'], counterpartyInformationRequired: true });
    const other = await externalAccount(travelRule.api, (await customer(travelRule.api)).id, usdAccount('123456781'));
    const strict = await travelRule.api.get(`/receiver/external-account/${other}`);
    expect(strict.status).toBe(200);
    expect(strict.body.requiredPayerDataFields).toEqual([
      { name: 'FULL_NAME', mandatory: true },
      { name: 'BIRTH_DATE', mandatory: true },
      { name: 'NATIONALITY', mandatory: true },
    ]);
  });

  test('a sender narrows the sending currencies to its own; customerId and senderUmaAddress name the same customer', async () => {
    const { api } = await h.platform();
    const sender = await customer(api, { currencies: ['EUR'] });
    const accountId = await externalAccount(api, (await customer(api)).id);
    const byId = await api.get(`/receiver/external-account/${accountId}?customerId=${encodeURIComponent(sender.id)}`);
    expect(byId.status).toBe(200);
    expect(pairs(byId.body.supportedCurrencies)).toEqual(['EUR>EUR']);
    expect(byId.body.requiredPayerDataFields).toEqual([]);
    const byAddress = await api.get(`/receiver/external-account/${accountId}?senderUmaAddress=${encodeURIComponent(sender.umaAddress.toUpperCase())}`);
    expect(byAddress.status).toBe(200);
    expect(pairs(byAddress.body.supportedCurrencies)).toEqual(['EUR>EUR']);
    const both = await api.get(
      `/receiver/external-account/${accountId}?customerId=${encodeURIComponent(sender.id)}&senderUmaAddress=${encodeURIComponent(sender.umaAddress)}`,
    );
    expect(both.status).toBe(200);
  });

  test('query parameters are validated, every problem listed: 400 INVALID_INPUT', async () => {
    const { api } = await h.platform();
    const someone = await customer(api);
    const accountId = await externalAccount(api, someone.id);
    const malformed = await api.get(`/receiver/external-account/${accountId}?customerId=Customer:nope&senderUmaAddress=alice`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('INVALID_INPUT');
    expect(fields(malformed)).toEqual(['customerId:pattern', 'senderUmaAddress:pattern']);

    const unknown = await api.get(
      `/receiver/external-account/${accountId}?customerId=${encodeURIComponent(MISSING_CUSTOMER)}&senderUmaAddress=${encodeURIComponent('$nobody@uma.example.com')}`,
    );
    expect(unknown.status).toBe(400);
    expect(fields(unknown)).toEqual(['customerId:exists', 'senderUmaAddress:exists']);

    const other = await customer(api);
    const mismatch = await api.get(
      `/receiver/external-account/${accountId}?customerId=${encodeURIComponent(someone.id)}&senderUmaAddress=${encodeURIComponent(other.umaAddress)}`,
    );
    expect(mismatch.status).toBe(400);
    expect(fields(mismatch)).toEqual(['senderUmaAddress:matchesCustomerId']);

    const extra = await api.get(`/receiver/external-account/${accountId}?currency=USD`);
    expect(extra.status).toBe(400);
    expect(fields(extra)).toEqual(['currency:additionalProperties']);
  });

  test("404 NOT_FOUND: unknown, deleted, and another platform's accounts; a path that is no id is no route", async () => {
    const owner = await h.platform();
    const intruder = await h.platform();
    const accountId = await externalAccount(owner.api, (await customer(owner.api)).id);
    const foreign = await intruder.api.get(`/receiver/external-account/${accountId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    // The intruder cannot use its own customer as a sender to see it either, nor another platform's customer as sender.
    const ownerCustomer = await customer(owner.api);
    const foreignSender = await intruder.api.get(
      `/receiver/external-account/${await externalAccount(intruder.api, (await customer(intruder.api)).id)}?customerId=${encodeURIComponent(ownerCustomer.id)}`,
    );
    expect(foreignSender.status).toBe(400);
    expect(fields(foreignSender)).toEqual(['customerId:exists']);

    expect((await owner.api.get(`/receiver/external-account/${MISSING_ACCOUNT}`)).body.code).toBe('NOT_FOUND');
    expect((await owner.api.delete(`/customers/external-accounts/${accountId}`)).status).toBe(204);
    const deleted = await owner.api.get(`/receiver/external-account/${accountId}`);
    expect(deleted.status).toBe(404);
    expect(deleted.body.code).toBe('NOT_FOUND');
    // A malformed id is answered as an unknown one, not as a wrong URL.
    const notAnId = await owner.api.get('/receiver/external-account/not-an-id');
    expect([notAnId.status, notAnId.body.code]).toEqual([404, 'NOT_FOUND']);
    expect(notAnId.body.message).not.toMatch(/No route/);
  });

  test('400 INVALID_CURRENCY when none of the platform’s currencies may be sent', async () => {
    const { api, platform } = await h.platform();
    const accountId = await externalAccount(api, (await customer(api)).id);
    await setCurrencies(platform.id, (p) => {
      for (const c of p.supportedCurrencies) c.enabledTransactionTypes = ['INCOMING'];
    });
    const res = await api.get(`/receiver/external-account/${accountId}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_CURRENCY', details: { sendingCurrencies: [], receivingCurrencies: ['EUR'] } });
  });
});

describe('GET /receiver/uma/{receiverUmaAddress}', () => {
  test("a customer's address resolves in any case; the receiver's currencies are priced; the platform's counterparty fields are asked", async () => {
    const { api, platform, uma } = await h.platform();
    const address = uma('bob.lookup');
    const receiver = await customer(api, { umaAddress: address, currencies: ['EUR'] });
    await setCurrencies(platform.id, (p) => {
      p.supportedCurrencies.find((c) => c.currencyCode === 'EUR')!.requiredCounterpartyFields = [
        { name: 'EMAIL', mandatory: false },
        { name: 'FULL_NAME', mandatory: true },
        { name: 'NOT_A_FIELD', mandatory: true },
      ];
    });
    const res = await api.get(`/receiver/uma/${encodeURIComponent(address.toUpperCase())}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ receiverUmaAddress: address, lookupId: expect.stringMatching(LOOKUP_ID), expiresAt: expect.any(String) });
    expect(pairs(res.body.supportedCurrencies)).toEqual(['USD>EUR', 'EUR>EUR']);
    expect(res.body.requiredPayerDataFields).toEqual([
      { name: 'FULL_NAME', mandatory: true },
      { name: 'EMAIL', mandatory: false },
    ]);
    const stored = await h.orm.em.fork().findOneOrFail(Lookup, { id: res.body.lookupId });
    expect(stored).toMatchObject({ kind: 'UMA_ADDRESS', target: address, receivingCurrencies: ['EUR'] });
    // The unencoded form reaches the same route.
    const raw = await api.get(`/receiver/uma/${address}`);
    expect(raw.status).toBe(200);
    expect(raw.body.receiverUmaAddress).toBe(receiver.umaAddress);
  });

  test('a customer with several currencies: one entry per corridor, receiving currencies in the customer’s order', async () => {
    const { api } = await h.platform();
    const receiver = await customer(api, { currencies: ['USD', 'EUR'] });
    const sender = await customer(api, { currencies: ['USD'] });
    const res = await api.get(`/receiver/uma/${encodeURIComponent(receiver.umaAddress)}?customerId=${encodeURIComponent(sender.id)}`);
    expect(res.status).toBe(200);
    expect(pairs(res.body.supportedCurrencies)).toEqual(['USD>USD', 'USD>EUR']);
    expect(res.body.requiredPayerDataFields).toEqual([{ name: 'FULL_NAME', mandatory: true }]);
  });

  test.each([['alice@uma.example.com'], ['$alice'], ['$al ice@uma.example.com'], ['$alice@localhost'], [`$${'a'.repeat(300)}@uma.example.com`]])(
    '400 INVALID_UMA_ADDRESS for %s',
    async (address) => {
      const { api } = await h.platform();
      const res = await api.get(`/receiver/uma/${encodeURIComponent(address)}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_UMA_ADDRESS', details: { receiverUmaAddress: address } });
    },
  );

  test("404 UMA_NOT_FOUND: unknown, deleted, and another platform's customers", async () => {
    const owner = await h.platform();
    const intruder = await h.platform();
    const receiver = await customer(owner.api);
    const foreign = await intruder.api.get(`/receiver/uma/${encodeURIComponent(receiver.umaAddress)}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('UMA_NOT_FOUND');
    const unknown = await owner.api.get(`/receiver/uma/${encodeURIComponent('$nobody.here@uma.example.com')}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('UMA_NOT_FOUND');
    expect((await owner.api.delete(`/customers/${receiver.id}`)).status).toBeLessThan(300);
    const deleted = await owner.api.get(`/receiver/uma/${encodeURIComponent(receiver.umaAddress)}`);
    expect(deleted.status).toBe(404);
    expect(deleted.body.code).toBe('UMA_NOT_FOUND');
  });

  test('400 SELF_PAYMENT when the sender is the receiver; 400 INVALID_INPUT for a bad sender', async () => {
    const { api } = await h.platform();
    const receiver = await customer(api);
    const self = await api.get(`/receiver/uma/${encodeURIComponent(receiver.umaAddress)}?senderUmaAddress=${encodeURIComponent(receiver.umaAddress)}`);
    expect(self.status).toBe(400);
    expect(self.body.code).toBe('SELF_PAYMENT');
    const bad = await api.get(`/receiver/uma/${encodeURIComponent(receiver.umaAddress)}?customerId=${encodeURIComponent(MISSING_CUSTOMER)}`);
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['customerId:exists']);
  });

  test('400 INVALID_CURRENCY when the receiver takes nothing the platform can send to it', async () => {
    const { api, platform } = await h.platform();
    const receiver = await customer(api, { currencies: ['EUR'] });
    await setCurrencies(platform.id, (p) => {
      p.supportedCurrencies.find((c) => c.currencyCode === 'EUR')!.enabledTransactionTypes = ['OUTGOING'];
    });
    const res = await api.get(`/receiver/uma/${encodeURIComponent(receiver.umaAddress)}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_CURRENCY', details: { receivingCurrencies: [] } });
  });
});

describe('POST /crypto/estimate-withdrawal-fee', () => {
  const SOLANA_ADDRESS = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
  const BITCOIN_ADDRESS = 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0';
  const EVM_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

  async function cryptoPlatform() {
    const p = await h.platform({ currencies: ['USD', 'USDC', 'BTC'] });
    const accounts = await h.orm.em.fork().find(InternalAccount, { platformId: p.platform.id, customerId: null });
    const byCurrency = (code: string) => accounts.find((a) => a.currency === code)!.id;
    return { ...p, usdc: byCurrency('USDC'), btc: byCurrency('BTC'), usd: byCurrency('USD') };
  }

  test('USDC over Solana: the fee in lamports, converted into USDC (rounded up), the net amount', async () => {
    const { api, usdc } = await cryptoPlatform();
    const res = await api.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId: usdc,
      currency: 'USDC',
      cryptoNetwork: 'SOLANA',
      amount: 1_000_000,
      destinationAddress: SOLANA_ADDRESS,
    });
    expect(res.status).toBe(200);
    // 15,000 lamports = 0.000015 SOL at $150 = $0.00225 = 2,250 USDC minor units.
    expect(res.body).toEqual({ networkFee: 15_000, networkFeeAsset: 'SOL', applicationFee: 0, totalFee: 2_250, netAmount: 997_750 });
  });

  test('BTC on chain and over Lightning: the fee is already in satoshis', async () => {
    const { api, btc } = await cryptoPlatform();
    const chain = await api.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId: btc,
      currency: 'BTC',
      cryptoNetwork: 'BITCOIN',
      amount: 100_000,
      destinationAddress: BITCOIN_ADDRESS,
    });
    expect(chain.status).toBe(200);
    expect(chain.body).toEqual({ networkFee: 1_410, networkFeeAsset: 'BTC', applicationFee: 0, totalFee: 1_410, netAmount: 98_590 });
    const lightning = await api.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId: btc,
      currency: 'BTC',
      cryptoNetwork: 'LIGHTNING',
      amount: 1_000,
      destinationAddress: 'alice@wallet.example.com',
    });
    expect(lightning.status).toBe(200);
    expect(lightning.body).toMatchObject({ networkFee: 10, totalFee: 10, netAmount: 990 });
  });

  test('400 INVALID_INPUT naming the field: a network that does not carry the currency, unknown values, a wrong address, the account’s currency', async () => {
    const { api, usdc, btc } = await cryptoPlatform();
    const overTron = await api.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId: usdc,
      currency: 'USDC',
      cryptoNetwork: 'TRON',
      amount: 1_000_000,
      destinationAddress: SOLANA_ADDRESS,
    });
    expect(overTron.status).toBe(400);
    expect(overTron.body.code).toBe('INVALID_INPUT');
    expect(overTron.body.details.errors).toEqual([
      {
        field: 'cryptoNetwork',
        constraint: { rule: 'supportedForCurrency', enum: ['SOLANA', 'ETHEREUM', 'BASE', 'ARBITRUM', 'POLYGON'] },
        message: expect.stringContaining('USDC cannot be withdrawn over TRON'),
      },
    ]);

    const unknown = await api.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId: usdc,
      currency: 'USD',
      cryptoNetwork: 'DOGECOIN',
      amount: 0,
      destinationAddress: '',
    });
    expect(unknown.status).toBe(400);
    expect(fields(unknown)).toEqual(['amount:minimum', 'cryptoNetwork:enum', 'currency:enum', 'destinationAddress:minLength']);

    const wrongAddress = await api.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId: usdc,
      currency: 'USDC',
      cryptoNetwork: 'BASE',
      amount: 1_000_000,
      destinationAddress: SOLANA_ADDRESS,
    });
    expect(wrongAddress.status).toBe(400);
    expect(fields(wrongAddress)).toEqual(['destinationAddress:format']);
    const base = await api.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId: usdc,
      currency: 'USDC',
      cryptoNetwork: 'BASE',
      amount: 1_000_000,
      destinationAddress: EVM_ADDRESS,
    });
    expect(base.status).toBe(200);

    const wrongAccount = await api.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId: btc,
      currency: 'USDC',
      cryptoNetwork: 'SOLANA',
      amount: 1_000_000,
      destinationAddress: SOLANA_ADDRESS,
    });
    expect(wrongAccount.status).toBe(400);
    expect(wrongAccount.body.details.errors).toEqual([
      { field: 'currency', constraint: { rule: 'matchesAccount', enum: ['BTC'] }, message: 'the account holds BTC' },
    ]);

    const empty = await api.post('/crypto/estimate-withdrawal-fee', { extra: true });
    expect(empty.status).toBe(400);
    expect(fields(empty)).toEqual([
      'amount:required',
      'body:additionalProperties',
      'cryptoNetwork:required',
      'currency:required',
      'destinationAddress:required',
      'internalAccountId:required',
    ]);
  });

  test('400 AMOUNT_OUT_OF_RANGE when the fees take the whole amount', async () => {
    const { api, usdc } = await cryptoPlatform();
    // 65,000 gas at 3 gwei = 0.000195 ETH at $3,000 = $0.585 = 585,000 USDC minor units.
    const res = await api.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId: usdc,
      currency: 'USDC',
      cryptoNetwork: 'ETHEREUM',
      amount: 585_000,
      destinationAddress: EVM_ADDRESS,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', details: { totalFee: 585_000, minimumAmount: 585_001 } });
    const enough = await api.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId: usdc,
      currency: 'USDC',
      cryptoNetwork: 'ETHEREUM',
      amount: 585_001,
      destinationAddress: EVM_ADDRESS,
    });
    expect(enough.status).toBe(200);
    expect(enough.body).toEqual({ networkFee: 195_000_000_000_000, networkFeeAsset: 'ETH', applicationFee: 0, totalFee: 585_000, netAmount: 1 });
  });

  test("404 NOT_FOUND for an unknown internal account or another platform's", async () => {
    const owner = await cryptoPlatform();
    const intruder = await h.platform();
    const body = { internalAccountId: owner.usdc, currency: 'USDC', cryptoNetwork: 'SOLANA', amount: 1_000_000, destinationAddress: SOLANA_ADDRESS };
    const foreign = await intruder.api.post('/crypto/estimate-withdrawal-fee', body);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    const unknown = await owner.api.post('/crypto/estimate-withdrawal-fee', {
      ...body,
      internalAccountId: 'InternalAccount:00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
  });
});

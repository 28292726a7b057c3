import { InternalAccount } from '../../src/contexts/ledger/entities';
import { verifyWebhookSignature } from '../../src/security/webhook-signature';
import { createToken } from '../../src/contexts/platforms/services/platforms';
import request from 'supertest';
import { WebhookEvent } from '../../src/contexts/webhooks/entities';
import { BASE, Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

describe('GET/PATCH /config', () => {
  test('reads the configuration', async () => {
    const { api, platform } = await h.platform({ region: 'EU', isRegulatedFinancialInstitution: true, counterpartyInformationRequired: true });
    const res = await api.get('/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: platform.id,
      region: 'EU',
      isRegulatedFinancialInstitution: true,
      counterpartyInformationRequired: true,
      embeddedWalletsSupported: false,
      webhookEndpoint: h.receiver.url,
      supportedCurrencies: [expect.objectContaining({ currencyCode: 'USD' }), expect.objectContaining({ currencyCode: 'EUR' })],
    });
  });

  test('adding a currency provisions a platform internal account for it', async () => {
    const { api, platform } = await h.platform();
    const res = await api.patch('/config', {
      supportedCurrencies: ['USD', 'EUR', 'MXN'].map((currencyCode) => ({
        currencyCode,
        minAmount: 1,
        maxAmount: 1_000_000,
        requiredCounterpartyFields: [],
        enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
      })),
    });
    expect(res.status).toBe(200);
    expect(res.body.supportedCurrencies.map((c: { currencyCode: string }) => c.currencyCode)).toEqual(['USD', 'EUR', 'MXN']);
    const accounts = await api.get('/platform/internal-accounts');
    expect(accounts.body.data.map((a: { balance: { currency: { code: string } } }) => a.balance.currency.code).sort()).toEqual(['EUR', 'MXN', 'USD']);
    expect(await h.orm.em.fork().count(InternalAccount, { platformId: platform.id, customerId: null })).toBe(3);
  });

  test('invalid updates list every bad field and change nothing', async () => {
    const { api } = await h.platform();
    const before = (await api.get('/config')).body;
    const res = await api.patch('/config', {
      webhookEndpoint: 'not a url',
      supportedCurrencies: [{ currencyCode: 'XXX', minAmount: 5, maxAmount: 1, requiredCounterpartyFields: [], enabledTransactionTypes: ['SIDEWAYS'] }],
      feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 20_000, fixedFee: { amount: -1, currency: 'USD' } }],
    });
    expect(res.status).toBe(400);
    const fields = res.body.details.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'webhookEndpoint',
        'supportedCurrencies.0.currencyCode',
        'supportedCurrencies.0.enabledTransactionTypes.0',
        'feeConfigs.0.variableFeeBps',
        'feeConfigs.0.fixedFee.amount',
      ]),
    );
    const after = (await api.get('/config')).body;
    expect(after).toEqual(before);
  });

  test('setting the webhook endpoint sends a signed TEST event', async () => {
    const { api } = await h.platform({ webhookEndpoint: null });
    const url = `${h.receiver.url}?for=config-test`;
    expect((await api.patch('/config', { webhookEndpoint: url })).status).toBe(200);
    await h.receiver.waitFor((hooks) => hooks.some((x) => x.body.type === 'TEST'));
  });
});

describe('PATCH /config feeConfigs: merge by (feeType, sourceCurrency), as the reference describes', () => {
  const fee = (variableFeeBps: number, amount: number, sourceCurrency = 'USD') => ({
    feeType: 'CROSS_CURRENCY_TRANSACTION',
    sourceCurrency,
    variableFeeBps,
    fixedFee: { amount, currency: 'USD' },
  });
  const feesOf = async (api: Awaited<ReturnType<Harness['platform']>>['api']) => (await api.get('/config')).body.feeConfigs;

  test('a config is added, then replaced by one with the same key; omitting feeConfigs or sending [] leaves them as they are', async () => {
    const { api } = await h.platform();
    expect(await feesOf(api)).toEqual([]);
    const added = await api.patch('/config', { feeConfigs: [fee(30, 100)] });
    expect(added.status).toBe(200);
    expect(added.body.feeConfigs).toEqual([fee(30, 100)]);
    expect((await api.patch('/config', { feeConfigs: [fee(45, 0)] })).body.feeConfigs).toEqual([fee(45, 0)]);
    expect((await api.patch('/config', { umaDomain: 'fees.example.com' })).body.feeConfigs).toEqual([fee(45, 0)]);
    expect((await api.patch('/config', { feeConfigs: [] })).body.feeConfigs).toEqual([fee(45, 0)]);
    expect(await feesOf(api)).toEqual([fee(45, 0)]);
  });

  test('zero variable and zero fixed fee deactivate the config with that key', async () => {
    const { api } = await h.platform();
    await api.patch('/config', { feeConfigs: [fee(30, 100)] }).expect(200);
    const res = await api.patch('/config', { feeConfigs: [fee(0, 0)] });
    expect(res.status).toBe(200);
    expect(res.body.feeConfigs).toEqual([]);
    expect(await feesOf(api)).toEqual([]);
    // A zero config for a key that is not active activates nothing.
    expect((await api.patch('/config', { feeConfigs: [fee(0, 0)] })).body.feeConfigs).toEqual([]);
  });

  test('source currencies other than USD are 400 INVALID_INPUT listing every such config, and nothing of the request is applied', async () => {
    const { api } = await h.platform();
    await api.patch('/config', { feeConfigs: [fee(30, 100)] }).expect(200);
    const before = (await api.get('/config')).body;
    const res = await api.patch('/config', { umaDomain: 'changed.example.com', feeConfigs: [fee(10, 0), fee(25, 50, 'EUR'), fee(5, 0, 'MXN')] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(res.body.details.errors).toEqual([
      { field: 'feeConfigs.1.sourceCurrency', constraint: { rule: 'supportedCurrency', enum: ['USD'] }, message: expect.stringContaining('USD') },
      { field: 'feeConfigs.2.sourceCurrency', constraint: { rule: 'supportedCurrency', enum: ['USD'] }, message: expect.stringContaining('USD') },
    ]);
    expect((await api.get('/config')).body).toEqual(before);
  });

  test('with other invalid fields, an unsupported source currency is listed among them in the 400', async () => {
    const { api } = await h.platform();
    const before = (await api.get('/config')).body;
    const res = await api.patch('/config', { webhookEndpoint: 'not a url', feeConfigs: [fee(25, 50, 'EUR'), fee(10, 0, 'XYZ')] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    expect(res.body.details.errors.map((e: { field: string; constraint: { rule: string } }) => `${e.field}:${e.constraint.rule}`).sort()).toEqual([
      'feeConfigs.0.sourceCurrency:supportedCurrency',
      'feeConfigs.1.sourceCurrency:enum',
      'webhookEndpoint:url',
    ]);
    expect((await api.get('/config')).body).toEqual(before);
  });

  test('null, a non-list and two configs with one key are refused with field errors', async () => {
    const { api } = await h.platform();
    await api.patch('/config', { feeConfigs: [fee(30, 100)] }).expect(200);
    for (const [feeConfigs, constraint] of [
      [null, 'type'],
      [fee(30, 100), 'type'],
      [[fee(30, 100), fee(40, 0)], 'unique'],
    ] as const) {
      const res = await api.patch('/config', { feeConfigs });
      expect({ feeConfigs, status: res.status, errors: res.body.details?.errors }).toEqual({
        feeConfigs,
        status: 400,
        errors: [expect.objectContaining({ field: 'feeConfigs', constraint: { rule: constraint } })],
      });
    }
    expect(await feesOf(api)).toEqual([fee(30, 100)]);
  });
});

describe('POST /webhooks/test', () => {
  test('WEBHOOK_ENDPOINT_NOT_SET when no endpoint is configured', async () => {
    const { api } = await h.platform({ webhookEndpoint: null });
    const res = await api.post('/webhooks/test');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('WEBHOOK_ENDPOINT_NOT_SET');
  });

  test('delivers a signed TEST event and reports the answer', async () => {
    const { api } = await h.platform();
    const before = h.receiver.ofType('TEST').length;
    const res = await api.post('/webhooks/test');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url: h.receiver.url, responseStatus: 200, id: expect.stringMatching(/^Webhook:/) });
    const hooks = h.receiver.ofType('TEST');
    expect(hooks.length).toBe(before + 1);
    const hook = hooks[hooks.length - 1]!;
    expect(hook.body).toMatchObject({ id: res.body.id, type: 'TEST', data: {} });
    expect(Date.parse(hook.body.timestamp)).not.toBeNaN();
    const key = (await api.get('/webhooks/public-key')).body.publicKeyPem;
    expect(verifyWebhookSignature(key, hook.rawBody, String(hook.headers['x-svc-signature']))).toBe(true);
    // The public API's header name is sent as an alias.
    expect(hook.headers['x-grid-signature']).toBe(hook.headers['x-svc-signature']);
  });

  test("POST /sandbox/webhooks/test answers in the reference's names (response_status, response_body), the camelCase pair beside them", async () => {
    const { api } = await h.platform();
    h.receiver.respond = () => 200;
    const res = await api.post('/sandbox/webhooks/test').expect(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^Webhook:/),
      url: h.receiver.url,
      response_status: 200,
      response_body: expect.any(String),
      responseStatus: 200,
      responseBody: res.body.response_body,
    });
    const declared = (await api.get('/openapi.json').expect(200)).body.components.schemas.TestWebhookResponse;
    expect(declared.required).toEqual(expect.arrayContaining(['url', 'response_status', 'response_body']));
  });

  test('WEBHOOK_DELIVERY_ERROR when the endpoint answers non-2xx, without retrying', async () => {
    const { api } = await h.platform();
    h.receiver.respond = () => 500;
    try {
      const before = h.receiver.ofType('TEST').length;
      const res = await api.post('/sandbox/webhooks/test');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'WEBHOOK_DELIVERY_ERROR', details: { response_status: 500, responseStatus: 500 } });
      expect(h.receiver.ofType('TEST').length).toBe(before + 1);
    } finally {
      h.receiver.respond = () => 200;
    }
  });

  test('WEBHOOK_DELIVERY_ERROR when nothing listens', async () => {
    const { api } = await h.platform({ webhookEndpoint: 'http://127.0.0.1:9/unreachable' });
    const res = await api.post('/webhooks/test');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('WEBHOOK_DELIVERY_ERROR');
  });

  test('POST /sandbox/webhooks/test with a production token: 403 FORBIDDEN, nothing sent', async () => {
    const { platform } = await h.platform();
    const prod = await createToken(h.orm.em.fork(), h.masterKey, platform.id, 'PRODUCTION');
    const before = h.receiver.ofType('TEST').length;
    const res = await request(h.app)
      .post(`${BASE}/sandbox/webhooks/test`)
      .set('Authorization', `Basic ${Buffer.from(`${prod.tokenId}:${prod.clientSecret}`).toString('base64')}`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    await new Promise((r) => setTimeout(r, 300));
    expect(h.receiver.ofType('TEST').length).toBe(before);
    expect(await h.orm.em.fork().count(WebhookEvent, { platformId: platform.id, environment: 'PRODUCTION' })).toBe(0);
  });

  test('sandbox and production sign with different keys', async () => {
    const { api, platform } = await h.platform();
    const prod = await createToken(h.orm.em.fork(), h.masterKey, platform.id, 'PRODUCTION');
    const sandboxKey = (await api.get('/webhooks/public-key')).body;
    const prodKey = (
      await api.get('/webhooks/public-key').set('Authorization', `Basic ${Buffer.from(`${prod.tokenId}:${prod.clientSecret}`).toString('base64')}`)
    ).body;
    expect(sandboxKey.environment).toBe('SANDBOX');
    expect(prodKey.environment).toBe('PRODUCTION');
    expect(prodKey.publicKeyPem).not.toBe(sandboxKey.publicKeyPem);
  });
});

import request from 'supertest';
import { SUPPORTED_CURRENCY_CODES } from '../../src/domain/currencies';
import { BASE, Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

/** An ExchangeRate as the API returns it. */
interface RateJson {
  sourceCurrency: { code: string; name: string; symbol: string; decimals: number };
  destinationCurrency: { code: string; decimals: number };
  sendingAmount: number;
  minSendingAmount: number;
  maxSendingAmount: number;
  destinationPaymentRail: string;
  receivingAmount: number;
  exchangeRate: number;
  fees: { fixed: number; total: number };
  updatedAt: string;
}
type FieldErrorJson = { field: string; constraint: { rule: string }; message: string };

async function rates(api: Api, query: string): Promise<RateJson[]> {
  const res = await api.get(`/exchange-rates${query}`);
  expect(res.status).toBe(200);
  return res.body.data as RateJson[];
}

const pair = (r: RateJson) => `${r.sourceCurrency.code}:${r.destinationCurrency.code}`;

describe('GET /exchange-rates', () => {
  test('without filters: every corridor, from the seven sending currencies to every currency, priced for 10000', async () => {
    const { api } = await h.platform();
    const data = await rates(api, '');
    expect(data).toHaveLength(7 * SUPPORTED_CURRENCY_CODES.length);
    expect([...new Set(data.map((r) => r.sourceCurrency.code))]).toEqual(['USD', 'EUR', 'GBP', 'USDC', 'USDT', 'USDB', 'BTC']);
    for (const r of data) {
      expect(Object.keys(r).sort()).toEqual([
        'destinationCurrency',
        'destinationPaymentRail',
        'exchangeRate',
        'fees',
        'maxSendingAmount',
        'minSendingAmount',
        'receivingAmount',
        'sendingAmount',
        'sourceCurrency',
        'updatedAt',
      ]);
      expect(r.sendingAmount).toBe(10_000);
      expect(Number.isSafeInteger(r.receivingAmount) && r.receivingAmount >= 0).toBe(true);
      expect(r.exchangeRate).toBeGreaterThan(0);
      expect(r.fees.total).toBeGreaterThanOrEqual(r.fees.fixed);
      expect(r.minSendingAmount).toBeLessThan(r.maxSendingAmount);
      expect(new Date(r.updatedAt).toISOString()).toBe(r.updatedAt);
    }
  });

  test('USD to INR and GBP, hand-computed (fees first, the rest converted at the spread rate and rounded down)', async () => {
    const { api } = await h.platform();
    const data = await rates(api, '?sourceCurrency=USD&destinationCurrency=INR&destinationCurrency=GBP');
    // In the order of the currency table: GBP before INR.
    expect(data.map(pair)).toEqual(['USD:GBP', 'USD:INR']);
    const [gbp, inr] = data as [RateJson, RateJson];
    // USD→INR: 83.25 × (1 − 0.60%) = 82.7505; fees 1.50 + 0.50% of 100.00 = 2.00; 98.00 × 82.7505 = 8109.549 INR.
    expect(inr).toMatchObject({
      sourceCurrency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
      destinationCurrency: { code: 'INR', decimals: 2 },
      sendingAmount: 10_000,
      minSendingAmount: 500,
      maxSendingAmount: 10_000_000,
      destinationPaymentRail: 'UPI',
      receivingAmount: 810_954,
      fees: { fixed: 150, total: 200 },
    });
    expect(inr.exchangeRate).toBeCloseTo(1 / 82.7505, 12);
    // USD→GBP: 0.79 × (1 − 0.30%) = 0.78763; fees 1.00 + 0.25% = 1.25; 98.75 × 0.78763 = 77.7784625 GBP.
    expect(gbp).toMatchObject({ destinationPaymentRail: 'FASTER_PAYMENTS', receivingAmount: 7_777, fees: { fixed: 100, total: 125 } });
    expect(gbp.exchangeRate).toBeCloseTo(1 / 0.78763, 12);
  });

  test('a single destinationCurrency, another sending amount (echoed), crypto with its network as rail', async () => {
    const { api } = await h.platform();
    const [mxn] = await rates(api, '?sourceCurrency=USD&destinationCurrency=MXN&sendingAmount=250000');
    // 17.235 × (1 − 0.40%) = 17.16606; fees 1.50 + 0.30% of 2500.00 = 9.00; 2491.00 × 17.16606 = 42760.65546 MXN.
    expect(mxn).toMatchObject({ sendingAmount: 250_000, destinationPaymentRail: 'SPEI', receivingAmount: 4_276_065, fees: { fixed: 150, total: 900 } });
    const [btc] = await rates(api, '?sourceCurrency=USDC&destinationCurrency=BTC&sendingAmount=100000000');
    // 100 USDC: 0.50 + 0.20% = 0.70 USDC fees; 99.30 × 0.0000105 × (1 − 0.50%) BTC = 0.00103743675 → 103743 sats.
    expect(btc).toMatchObject({
      destinationPaymentRail: 'LIGHTNING',
      destinationCurrency: { code: 'BTC', decimals: 8 },
      receivingAmount: 103_743,
      fees: { fixed: 500_000, total: 700_000 },
    });
  });

  test("the platform's fee configs are included (conversions from their source currency only)", async () => {
    const { api } = await h.platform();
    const patched = await api.patch('/config', {
      feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 30, fixedFee: { amount: 25, currency: 'USD' } }],
    });
    expect(patched.status).toBe(200);
    const data = await rates(api, '?destinationCurrency=INR&destinationCurrency=USD');
    const by = new Map(data.map((r) => [pair(r), r]));
    // fees 1.50 + 0.25 fixed, ceil(10000 × (50 + 30) / 10000) = 80 variable; 97.45 × 82.7505 = 8064.036225 INR.
    expect(by.get('USD:INR')).toMatchObject({ receivingAmount: 806_403, fees: { fixed: 175, total: 255 } });
    // Same currency is not a cross-currency transaction; EUR has no config.
    expect(by.get('USD:USD')).toMatchObject({ receivingAmount: 9_975, fees: { fixed: 25, total: 25 }, exchangeRate: 1 });
    expect(by.get('EUR:INR')!.fees).toEqual({ fixed: 140, total: 190 });
  });

  test('sendingAmount 0 prices nothing: receivingAmount 0, the fixed fees shown', async () => {
    const { api } = await h.platform();
    const [r] = await rates(api, '?sourceCurrency=EUR&destinationCurrency=KES&sendingAmount=0');
    expect(r).toMatchObject({
      sendingAmount: 0,
      receivingAmount: 0,
      fees: { fixed: 180, total: 180 },
      destinationPaymentRail: 'MOBILE_MONEY',
      maxSendingAmount: 185_000,
    });
  });

  test('a currency that sends nothing lists nothing', async () => {
    const { api } = await h.platform();
    expect(await rates(api, '?sourceCurrency=MXN')).toEqual([]);
  });

  test('the rate is cached: updatedAt does not move between calls', async () => {
    const { api } = await h.platform();
    const [a] = await rates(api, '?sourceCurrency=GBP&destinationCurrency=PHP');
    const [b] = await rates(api, '?sourceCurrency=GBP&destinationCurrency=PHP');
    expect(b!.updatedAt).toBe(a!.updatedAt);
    expect(Date.now() - Date.parse(a!.updatedAt)).toBeLessThan(5 * 60 * 1000 + 1000);
  });

  test('every invalid query field is listed at once', async () => {
    const { api } = await h.platform();
    const res = await api.get('/exchange-rates?sourceCurrency=XYZ&destinationCurrency=INR&destinationCurrency=ABC&sendingAmount=1e3');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_INPUT');
    const errors = res.body.details.errors as FieldErrorJson[];
    expect(errors.map((e) => e.field).sort()).toEqual(['destinationCurrency.1', 'sendingAmount', 'sourceCurrency']);
    expect(errors.find((e) => e.field === 'sourceCurrency')!.constraint.rule).toBe('enum');
  });

  test('unknown query parameters are refused, each named', async () => {
    const { api } = await h.platform();
    const res = await api.get('/exchange-rates?sourceCurrency=USD&colour=blue&destinationCurrency[]=INR');
    expect(res.status).toBe(400);
    const errors = res.body.details.errors as FieldErrorJson[];
    expect(errors.map((e) => e.field).sort()).toEqual(['colour', 'destinationCurrency[]']);
    expect(errors.every((e) => e.constraint.rule === 'additionalProperties')).toBe(true);
  });

  test.each(['-1', 'abc', '', '9000000000000001', '12.5', ' 5'])('sendingAmount=%j is refused', async (value) => {
    const { api } = await h.platform();
    const res = await api.get(`/exchange-rates?sendingAmount=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect((res.body.details.errors as FieldErrorJson[]).map((e) => e.field)).toEqual(['sendingAmount']);
  });

  test('the largest sendingAmount is priced exactly', async () => {
    const { api } = await h.platform();
    const res = await api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=USD&sendingAmount=9000000000000000');
    expect(res.status).toBe(200);
    // Exact int64 in the JSON text: 9e15 − 0.25 USD.
    expect(res.text).toContain('"receivingAmount":8999999999999975');
  });

  test('credentials are required', async () => {
    const res = await request(h.app).get(`${BASE}/exchange-rates`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  test("documented as the reference's getExchangeRates, with its three query parameters", async () => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body as {
      paths: Record<
        string,
        {
          get: {
            operationId: string;
            tags: string[];
            parameters: { name: string; in: string; schema: { type: string } }[];
            responses: Record<string, unknown>;
          };
        }
      >;
    };
    const op = doc.paths['/exchange-rates']!.get;
    expect(op.operationId).toBe('getExchangeRates');
    expect(op.tags).toEqual(['Exchange Rates']);
    expect(op.parameters.map((p) => [p.name, p.in, p.schema.type])).toEqual([
      ['sourceCurrency', 'query', 'string'],
      ['destinationCurrency', 'query', 'array'],
      ['sendingAmount', 'query', 'integer'],
    ]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '500']));
  });
});

import request from 'supertest';
import { currencyView } from '../../src/domain/currencies';
import { discoveries, umaProviders, vasps } from '../../src/contexts/directories/domain';
import { BASE, Harness } from '../support/harness';

let h: Harness;
let api: Awaited<ReturnType<Harness['platform']>>['api'];
beforeAll(async () => {
  h = await Harness.start();
  ({ api } = await h.platform());
});
afterAll(async () => {
  await h.stop();
});

type FieldErrorJson = { field: string; constraint: { rule: string }; message: string };

/** Walks a list from its first page to its last, checking the page invariants on the way. */
async function walk<T>(path: string, limit: number): Promise<{ items: T[]; pages: number; totalCount?: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let totalCount: number | undefined;
  const sep = path.includes('?') ? '&' : '?';
  do {
    const res = await api.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    expect(res.body.hasMore).toBe(res.body.nextCursor !== undefined);
    if (pages > 0) expect(res.body.totalCount).toBe(totalCount);
    totalCount = res.body.totalCount;
    items.push(...res.body.data);
    cursor = res.body.nextCursor;
    pages++;
    expect(pages).toBeLessThan(500);
  } while (cursor);
  return { items, pages, totalCount };
}

const nameOf = (d: { country: string; currency: string; bankName: string }) => `${d.country} ${d.currency} ${d.bankName}`;

function expectInvalid(res: request.Response, field: string, rule?: string) {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('INVALID_INPUT');
  expect(res.body.details.errors).toEqual([expect.objectContaining({ field, ...(rule ? { constraint: expect.objectContaining({ rule }) } : {}) })]);
  return res.body.details.errors[0] as FieldErrorJson;
}

describe('GET /discoveries', () => {
  test('filtered by country and currency: the four fields of the reference, with paging fields', async () => {
    const res = await api.get('/discoveries?country=PH&currency=PHP');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expect.any(Array), hasMore: false, totalCount: res.body.data.length });
    expect(res.body.data.length).toBeGreaterThanOrEqual(3);
    expect(res.body.data).toContainEqual({ bankName: 'BDO Unibank', displayName: 'BDO Unibank', country: 'PH', currency: 'PHP' });
    for (const d of res.body.data) {
      expect(Object.keys(d).sort()).toEqual(['bankName', 'country', 'currency', 'displayName']);
      expect(d).toMatchObject({ country: 'PH', currency: 'PHP' });
    }
  });

  test('each filter alone; mobile-money providers of one country; a pair without institutions is an empty list', async () => {
    const ng = await api.get('/discoveries?country=NG');
    expect(ng.body.data.length).toBeGreaterThanOrEqual(3);
    expect(ng.body.data.every((d: { currency: string }) => d.currency === 'NGN')).toBe(true);

    const xof = await api.get('/discoveries?currency=XOF&limit=100');
    expect(new Set(xof.body.data.map((d: { country: string }) => d.country))).toEqual(new Set(['BJ', 'CI', 'SN', 'TG']));
    const sn = await api.get('/discoveries?currency=XOF&country=SN');
    expect(sn.body.data.map((d: { bankName: string }) => d.bankName).sort()).toEqual(['Orange Money', 'Wave']);

    const kes = await api.get('/discoveries?currency=KES');
    expect(kes.body.data.map((d: { bankName: string }) => d.bankName)).toContain('M-Pesa');

    for (const path of ['/discoveries?country=PH&currency=NGN', '/discoveries?country=US', '/discoveries?currency=BTC']) {
      const res = await api.get(path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    }
  });

  test('without filters every entry, ordered by country, currency and name; paging has no duplicates or gaps', async () => {
    const expected = discoveries().map(nameOf);
    expect(expected.length).toBeGreaterThan(100);
    // No paging unless asked for (the reference returns every institution, and its CLI cannot page).
    const all = await api.get('/discoveries');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ data: expect.any(Array), hasMore: false, totalCount: expected.length });
    expect([...all.body.data.map(nameOf)].sort()).toEqual([...expected].sort());
    const allKeys = all.body.data.map((d: { country: string; currency: string; bankName: string }) => `${d.country} ${d.currency} ${d.bankName.toLowerCase()}`);
    expect(allKeys).toEqual([...allKeys].sort());
    const cny = await api.get('/discoveries?currency=CNY');
    expect(cny.body).toMatchObject({ hasMore: false, totalCount: cny.body.data.length });
    for (const limit of [7, 100]) {
      const { items, pages, totalCount } = await walk<{ country: string; currency: string; bankName: string }>('/discoveries', limit);
      expect(totalCount).toBe(expected.length);
      expect(pages).toBe(Math.ceil(expected.length / limit));
      const names = items.map(nameOf);
      expect(new Set(names).size).toBe(names.length);
      expect([...names].sort()).toEqual([...expected].sort());
      const keys = items.map((d) => `${d.country} ${d.currency} ${d.bankName.toLowerCase()}`);
      expect(keys).toEqual([...keys].sort());
    }
  });

  test('a filtered list pages too, and its cursor keeps working with the same filters', async () => {
    const all = (await api.get('/discoveries?currency=CNY&limit=100')).body.data;
    const { items, pages } = await walk('/discoveries?currency=CNY', 3);
    expect(items).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 3));
  });

  test.each([
    ['country', '/discoveries?country=XX', 'iso3166-1-alpha-2'],
    ['country', '/discoveries?country=ph', 'iso3166-1-alpha-2'],
    ['country', '/discoveries?country=PHL', 'iso3166-1-alpha-2'],
    ['currency', '/discoveries?currency=XYZ', 'enum'],
    ['currency', '/discoveries?currency=php', 'enum'],
    ['limit', '/discoveries?limit=0', 'minimum'],
    ['limit', '/discoveries?limit=101', 'maximum'],
  ])('a bad %s is 400 INVALID_INPUT naming it (%s)', async (field, path, rule) => {
    expectInvalid(await api.get(path), field, rule);
  });

  test('both filters bad: both named at once; an undocumented parameter is refused', async () => {
    const res = await api.get('/discoveries?country=ZZ&currency=ZZZ');
    expect(res.status).toBe(400);
    expect(res.body.details.errors.map((e: FieldErrorJson) => e.field).sort()).toEqual(['country', 'currency']);
    expectInvalid(await api.get('/discoveries?bank=BDO'), 'bank');
  });
});

describe('GET /vasps', () => {
  test('data, hasMore and nextCursor only (the reference has no totalCount), by name', async () => {
    const res = await api.get('/vasps?limit=5');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'hasMore', 'nextCursor']);
    expect(res.body.hasMore).toBe(true);
    for (const v of res.body.data) {
      expect(Object.keys(v).every((k) => k === 'vaspName' || k === 'url')).toBe(true);
      expect(typeof v.vaspName).toBe('string');
    }
    const last = await api.get('/vasps?limit=100');
    expect(Object.keys(last.body).sort()).toEqual(['data', 'hasMore']);
    expect(last.body.data).toContainEqual({ vaspName: 'Kraken', url: 'https://www.kraken.com' });
  });

  test('paging through every VASP: each once, in name order', async () => {
    const expected = vasps().map((v) => v.vaspName);
    for (const limit of [1, 4, 20]) {
      const { items, pages } = await walk<{ vaspName: string }>('/vasps', limit);
      const names = items.map((v) => v.vaspName);
      expect(names).toHaveLength(expected.length);
      expect(new Set(names)).toEqual(new Set(expected));
      expect(names.map((n) => n.toLowerCase())).toEqual(names.map((n) => n.toLowerCase()).sort());
      expect(pages).toBe(Math.ceil(expected.length / limit));
    }
  });
});

describe('GET /uma-providers', () => {
  test('providers with full currency objects, all on the allow list, by name descending by default', async () => {
    const res = await api.get('/uma-providers');
    expect(res.status).toBe(200);
    expect(res.body.totalCount).toBe(umaProviders().length);
    expect(res.body.hasMore).toBe(false);
    const names = res.body.data.map((p: { name: string }) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
    for (const p of res.body.data) {
      expect(p).toEqual(
        expect.objectContaining({ name: expect.any(String), domain: expect.any(String), supportedRegions: expect.any(Array), allowListStatus: true }),
      );
      for (const c of p.supportedCurrencies) expect(c).toEqual(currencyView(c.code));
    }
    const asc = await api.get('/uma-providers?sortOrder=asc');
    expect(asc.body.data).toEqual([...res.body.data].reverse());
  });

  test('filters by country and currency; hasBlockedProviders=false returns them all too (every provider is allowed)', async () => {
    const ph = await api.get('/uma-providers?countryCode=PH');
    expect(ph.body.data.map((p: { name: string }) => p.name)).toEqual(['Coins.ph']);
    expect(ph.body.data[0].supportedCurrencies).toContainEqual({ code: 'PHP', name: 'Philippine Peso', symbol: '₱', decimals: 2 });
    const brl = await api.get('/uma-providers?currencyCode=BRL&sortOrder=asc');
    expect(brl.body.data.map((p: { name: string }) => p.name)).toEqual(['Foxbit', 'Ripio']);
    expect(brl.body.totalCount).toBe(2);
    const none = await api.get('/uma-providers?countryCode=PH&currencyCode=BRL');
    expect(none.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    const all = (await api.get('/uma-providers')).body;
    expect((await api.get('/uma-providers?hasBlockedProviders=false')).body).toEqual(all);
    expect((await api.get('/uma-providers?hasBlockedProviders=true')).body).toEqual(all);
  });

  test.each(['asc', 'desc'])('paging in %s order: each provider once', async (order) => {
    const { items, pages, totalCount } = await walk<{ name: string }>(`/uma-providers?sortOrder=${order}`, 2);
    expect(totalCount).toBe(umaProviders().length);
    expect(pages).toBe(Math.ceil(umaProviders().length / 2));
    const names = items.map((p) => p.name);
    expect(new Set(names).size).toBe(umaProviders().length);
    const sorted = [...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    expect(names).toEqual(order === 'asc' ? sorted : sorted.reverse());
  });

  test.each([
    ['countryCode', '/uma-providers?countryCode=USA', 'iso3166-1-alpha-2'],
    ['currencyCode', '/uma-providers?currencyCode=DOGE', 'enum'],
    ['hasBlockedProviders', '/uma-providers?hasBlockedProviders=yes', 'enum'],
    ['sortOrder', '/uma-providers?sortOrder=name', 'enum'],
  ])('a bad %s is 400 naming it', async (field, path, rule) => {
    expectInvalid(await api.get(path), field, rule);
  });

  test('a cursor of the other order is refused: it would repeat what the first page showed', async () => {
    const desc = await api.get('/uma-providers?limit=1');
    const res = await api.get(`/uma-providers?limit=1&sortOrder=asc&cursor=${desc.body.nextCursor}`);
    expect(expectInvalid(res, 'cursor').message).toMatch(/desc order/);
  });
});

describe('cursors and credentials', () => {
  test.each([
    ['garbage', 'garbage'],
    ['base64 of something else', Buffer.from('{"a":1}').toString('base64url')],
  ])('a forged cursor (%s) is 400 on cursor', async (_what, cursor) => {
    for (const path of ['/discoveries', '/vasps', '/uma-providers']) expectInvalid(await api.get(`${path}?cursor=${cursor}`), 'cursor');
  });

  test("one list's cursor is refused by another, and a database list's cursor by all three", async () => {
    const vaspCursor = (await api.get('/vasps?limit=1')).body.nextCursor as string;
    expectInvalid(await api.get(`/discoveries?cursor=${vaspCursor}`), 'cursor');
    const discoveryCursor = (await api.get('/discoveries?limit=1')).body.nextCursor as string;
    expectInvalid(await api.get(`/vasps?cursor=${discoveryCursor}`), 'cursor');
    expectInvalid(await api.get(`/uma-providers?cursor=${discoveryCursor}`), 'cursor');

    const { api: withAccounts } = await h.platform();
    await withAccounts.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'dir-1' }).expect(201);
    const accountCursor = (await withAccounts.get('/customers/internal-accounts?limit=1')).body.nextCursor as string;
    expect(accountCursor).toEqual(expect.any(String));
    for (const path of ['/discoveries', '/vasps', '/uma-providers']) expectInvalid(await api.get(`${path}?cursor=${accountCursor}`), 'cursor');
    expectInvalid(await withAccounts.get(`/customers/internal-accounts?cursor=${vaspCursor}`), 'cursor');
  });

  test.each(['/discoveries', '/vasps', '/uma-providers'])('%s without credentials is 401 UNAUTHORIZED', async (path) => {
    for (const auth of [undefined, `Basic ${Buffer.from('Token:nobody:wrong').toString('base64')}`]) {
      const req = request(h.app).get(`${BASE}${path}`);
      const res = await (auth ? req.set('Authorization', auth) : req);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    }
  });

  test('the same directory for every platform', async () => {
    const other = await h.platform({ currencies: ['USD'] });
    for (const path of ['/discoveries?limit=100', '/vasps?limit=100', '/uma-providers']) {
      expect((await other.api.get(path)).body).toEqual((await api.get(path)).body);
    }
  });

  test('the OpenAPI document declares the parameters of the reference (plus paging on /discoveries) under its tags', async () => {
    const doc = (await request(h.app).get(`${BASE}/openapi.json`)).body as {
      paths: Record<string, { get: { tags: string[]; operationId: string; parameters: { in: string; name: string }[] } }>;
      components: { schemas: Record<string, unknown> };
    };
    const expected: [string, string, string, string[]][] = [
      ['/discoveries', 'Discoveries', 'getDiscoveries', ['country', 'currency', 'limit', 'cursor']],
      ['/vasps', 'VASPs', 'listVasps', ['limit', 'cursor']],
      [
        '/uma-providers',
        'Available UMA Providers',
        'getAvailableUmaProviders',
        ['countryCode', 'currencyCode', 'hasBlockedProviders', 'limit', 'cursor', 'sortOrder'],
      ],
    ];
    for (const [path, tag, operationId, params] of expected) {
      const op = doc.paths[path]!.get;
      expect(op.tags).toEqual([tag]);
      expect(op.operationId).toBe(operationId);
      expect(
        op.parameters
          .filter((p) => p.in === 'query')
          .map((p) => p.name)
          .sort(),
      ).toEqual([...params].sort());
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['DiscoveryListResponse', 'Vasp', 'VaspListResponse', 'UmaProvider', 'UmaProviderListResponse', 'Currency']),
    );
  });
});

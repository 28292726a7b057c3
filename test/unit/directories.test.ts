import { isCountryCode } from '../../src/domain/countries';
import { currencyView, findCurrency } from '../../src/domain/currencies';
import { DomainError } from '../../src/domain/errors';
import { encodeCursor } from '../../src/domain/pagination';
import {
  currenciesWithInstitutionDirectory,
  currenciesWithMobileMoneyDirectory,
  discoveries,
  discoveryKey,
  findMobileMoneyProvider,
  findReceivingInstitution,
  findVasp,
  pageOfDirectory,
  umaProviders,
  vasps,
} from '../../src/contexts/directories/domain';
import { MOBILE_MONEY_PROVIDERS, RECEIVING_INSTITUTIONS } from '../../src/contexts/directories/domain/data/institutions';

/** The currencies whose external account variant requires `bankName`, with their country. */
const BANK_NAME_CORRIDORS: Record<string, string> = {
  BDT: 'BD',
  CNY: 'CN',
  COP: 'CO',
  EGP: 'EG',
  GHS: 'GH',
  GTQ: 'GT',
  HKD: 'HK',
  IDR: 'ID',
  JMD: 'JM',
  MYR: 'MY',
  NGN: 'NG',
  PHP: 'PH',
  PKR: 'PK',
  THB: 'TH',
  VND: 'VN',
  ZAR: 'ZA',
};
const MOBILE_MONEY_CURRENCIES = ['KES', 'TZS', 'RWF', 'ZMW', 'UGX', 'MWK', 'BWP', 'XOF', 'XAF'];

function invalidCursorOf(run: () => unknown): DomainError {
  let caught: unknown;
  try {
    run();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(DomainError);
  const err = caught as DomainError;
  expect(err.code).toBe('INVALID_INPUT');
  expect(err.details).toEqual({ errors: [expect.objectContaining({ field: 'cursor' })] });
  return err;
}

describe('receiving institutions', () => {
  test('a directory for exactly the currencies whose accounts require bankName, 3 to 8 institutions each, in their country', () => {
    expect([...currenciesWithInstitutionDirectory()].sort()).toEqual(Object.keys(BANK_NAME_CORRIDORS).sort());
    for (const [currency, country] of Object.entries(BANK_NAME_CORRIDORS)) {
      const entries = RECEIVING_INSTITUTIONS.filter((i) => i.currency === currency);
      expect(entries.length).toBeGreaterThanOrEqual(3);
      expect(entries.length).toBeLessThanOrEqual(8);
      for (const entry of entries) expect(entry.country).toBe(country);
    }
  });

  test('mobile wallets of the corridors that pay wallets are there, marked as such internally', () => {
    for (const [currency, name] of [
      ['CNY', 'Alipay'],
      ['CNY', 'WeChat Pay'],
      ['COP', 'Nequi'],
      ['COP', 'Daviplata'],
      ['BDT', 'bKash'],
      ['PKR', 'JazzCash'],
    ] as const) {
      expect(findReceivingInstitution(currency, name)?.rail).toBe('MOBILE_MONEY');
    }
    expect(findReceivingInstitution('PHP', 'BDO Unibank')?.rail).toBe('BANK_TRANSFER');
  });

  test('canonical names are trimmed printable ASCII, unique per currency regardless of case', () => {
    const seen = new Set<string>();
    for (const i of RECEIVING_INSTITUTIONS) {
      expect(i.bankName).toMatch(/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/);
      expect(i.displayName.trim()).toBe(i.displayName);
      expect(i.displayName.length).toBeGreaterThan(0);
      const key = `${i.currency} ${i.bankName.toLowerCase()}`;
      expect(seen.has(key)).toBe(false);
      seen.add(key);
    }
  });

  test('findReceivingInstitution: exact canonical name of that currency, case-insensitive', () => {
    expect(findReceivingInstitution('PHP', 'BDO Unibank')).toEqual({
      bankName: 'BDO Unibank',
      displayName: 'BDO Unibank',
      country: 'PH',
      currency: 'PHP',
      rail: 'BANK_TRANSFER',
    });
    expect(findReceivingInstitution('PHP', 'bdo UNIBANK')?.bankName).toBe('BDO Unibank');
    expect(findReceivingInstitution('BDT', 'BKASH')?.bankName).toBe('bKash');
    expect(findReceivingInstitution('COP', 'Banco de Bogota')?.displayName).toBe('Banco de Bogotá');
  });

  test.each([
    ['another currency', 'NGN', 'BDO Unibank'],
    ['a partial name', 'PHP', 'BDO'],
    ['surrounding spaces', 'PHP', ' BDO Unibank '],
    ['the display name', 'PHP', 'Bank of the Philippine Islands'],
    ['an accent the canonical name lacks', 'COP', 'Banco de Bogotá'],
    ['a currency without a directory', 'USD', 'Chase'],
    ['an unknown currency', 'XYZ', 'BDO Unibank'],
    ['an empty name', 'PHP', ''],
  ])('findReceivingInstitution: nothing for %s', (_what, currency, name) => {
    expect(findReceivingInstitution(currency, name)).toBeUndefined();
  });

  test('currenciesWithInstitutionDirectory returns a fresh set each time', () => {
    currenciesWithInstitutionDirectory().add('USD');
    expect(currenciesWithInstitutionDirectory().has('USD')).toBe(false);
  });
});

describe('mobile-money providers', () => {
  test('a directory for the mobile-money currencies, none shared with the bank directory', () => {
    expect([...currenciesWithMobileMoneyDirectory()].sort()).toEqual([...MOBILE_MONEY_CURRENCIES].sort());
    const banks = currenciesWithInstitutionDirectory();
    for (const c of currenciesWithMobileMoneyDirectory()) expect(banks.has(c)).toBe(false);
    for (const c of MOBILE_MONEY_CURRENCIES) expect(MOBILE_MONEY_PROVIDERS.filter((p) => p.currency === c).length).toBeGreaterThanOrEqual(2);
  });

  test('findMobileMoneyProvider: case-insensitive, optionally in one country', () => {
    expect(findMobileMoneyProvider('KES', 'm-pesa')?.provider).toBe('M-Pesa');
    expect(findMobileMoneyProvider('XOF', 'Wave', 'SN')?.provider).toBe('Wave');
    expect(findMobileMoneyProvider('XOF', 'Wave', 'TG')).toBeUndefined();
    expect(findMobileMoneyProvider('KES', 'MTN MoMo')).toBeUndefined();
    expect(findMobileMoneyProvider('PHP', 'GCash')).toBeUndefined();
  });
});

describe('data', () => {
  test('every currency and country is one the service knows', () => {
    for (const d of discoveries()) {
      expect(isCountryCode(d.country)).toBe(true);
      expect(findCurrency(d.currency)?.kind).toBe('FIAT');
    }
    for (const p of umaProviders()) {
      for (const region of p.supportedRegions) expect(isCountryCode(region)).toBe(true);
    }
  });

  test('discoveries: banks and mobile-money providers (one entry per country), only the four public fields', () => {
    const all = discoveries();
    expect(all.length).toBe(RECEIVING_INSTITUTIONS.length + MOBILE_MONEY_PROVIDERS.reduce((n, p) => n + p.countries.length, 0));
    expect(new Set(all.map(discoveryKey)).size).toBe(all.length);
    for (const d of all) expect(Object.keys(d).sort()).toEqual(['bankName', 'country', 'currency', 'displayName']);
    expect(
      discoveries({ currency: 'XOF', country: 'SN' })
        .map((d) => d.bankName)
        .sort(),
    ).toEqual(['Orange Money', 'Wave']);
    expect(discoveries({ country: 'PH' }).every((d) => d.currency === 'PHP')).toBe(true);
    expect(discoveries({ country: 'PH', currency: 'NGN' })).toEqual([]);
    expect(discoveries({ country: 'US' })).toEqual([]);
  });

  test('VASPs: about fifteen real exchanges and custodians, unique names, https websites', () => {
    const all = vasps();
    expect(all.length).toBeGreaterThanOrEqual(15);
    expect(new Set(all.map((v) => v.vaspName.toLowerCase())).size).toBe(all.length);
    for (const v of all) if (v.url) expect(new URL(v.url).protocol).toBe('https:');
    expect(all.map((v) => v.vaspName)).toEqual(expect.arrayContaining(['Kraken', 'Coinbase', 'Binance']));
  });

  test('findVasp: exact name, case-insensitive', () => {
    expect(findVasp('Kraken')).toEqual({ vaspName: 'Kraken', url: 'https://www.kraken.com' });
    expect(findVasp('COINBASE')?.vaspName).toBe('Coinbase');
    expect(findVasp('crypto.com')?.vaspName).toBe('Crypto.com');
    expect(findVasp('Krak')).toBeUndefined();
    expect(findVasp('Kraken ')).toBeUndefined();
    expect(findVasp('')).toBeUndefined();
  });

  test('UMA providers: full currency objects, on the allow list, filtered by country and currency', () => {
    const all = umaProviders();
    expect(all.length).toBeGreaterThanOrEqual(3);
    for (const p of all) {
      expect(p.allowListStatus).toBe(true);
      for (const c of p.supportedCurrencies) expect(c).toEqual(currencyView(c.code));
    }
    expect(umaProviders({ countryCode: 'PH' }).map((p) => p.name)).toEqual(['Coins.ph']);
    expect(
      umaProviders({ currencyCode: 'BRL' })
        .map((p) => p.name)
        .sort(),
    ).toEqual(['Foxbit', 'Ripio']);
    expect(umaProviders({ countryCode: 'PH', currencyCode: 'BRL' })).toEqual([]);
    expect(umaProviders({ hasBlockedProviders: false })).toEqual(all);
    expect(umaProviders({ hasBlockedProviders: true })).toEqual(all);
  });
});

describe('pageOfDirectory', () => {
  const letters = 'qwertyuiopasdfghjklzxcvbnm'.split('').map((c) => ({ name: c }));
  const key = (e: { name: string }) => e.name;

  function walk(limit: number, order: 'asc' | 'desc') {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = pageOfDirectory('letters', letters, key, { limit, ...(cursor ? { cursor } : {}), sortOrder: order });
      expect(page.totalCount).toBe(26);
      expect(page.data.length).toBeLessThanOrEqual(limit);
      expect(page.hasMore).toBe(page.nextCursor !== undefined);
      seen.push(...page.data.map(key));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    return { seen, pages };
  }

  test.each([1, 3, 5, 25, 26, 27, 100])('limit %i: every entry once, in key order, both ways', (limit) => {
    const sorted = letters.map(key).sort();
    const asc = walk(limit, 'asc');
    expect(asc.seen).toEqual(sorted);
    expect(asc.pages).toBe(Math.max(1, Math.ceil(26 / limit)));
    expect(walk(limit, 'desc').seen).toEqual([...sorted].reverse());
  });

  test('the last page has no cursor; an empty list is one empty page', () => {
    expect(pageOfDirectory('letters', letters, key, { limit: 26 })).toEqual({ data: expect.any(Array), hasMore: false, totalCount: 26 });
    expect(pageOfDirectory('letters', [], key, { limit: 5 })).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  test('default limit 20, ascending unless told otherwise', () => {
    const page = pageOfDirectory('letters', letters, key);
    expect(page.data.map(key)).toEqual(letters.map(key).sort().slice(0, 20));
    expect(pageOfDirectory('letters', letters, key, {}, 'desc').data[0]).toEqual({ name: 'z' });
  });

  test('a cursor continues after its key even when that entry is gone', () => {
    const first = pageOfDirectory('letters', letters, key, { limit: 3 });
    expect(first.data.map(key)).toEqual(['a', 'b', 'c']);
    const next = pageOfDirectory(
      'letters',
      letters.filter((l) => l.name !== 'c'),
      key,
      { limit: 3, cursor: first.nextCursor! },
    );
    expect(next.data.map(key)).toEqual(['d', 'e', 'f']);
  });

  test('cursors are opaque base64url', () => {
    expect(pageOfDirectory('letters', letters, key, { limit: 2 }).nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  test.each([
    ['garbage', 'garbage'],
    ['empty', ''],
    ['a database list cursor', encodeCursor({ createdAt: '2025-01-01T00:00:00.000Z', id: 'Transaction:x' })],
    ['an ascending database list cursor', encodeCursor({ createdAt: '2025-01-01T00:00:00.000Z', id: 'x', order: 'asc' })],
    ['another list', pageOfDirectory('numbers', [{ name: '1' }, { name: '2' }], key, { limit: 1 }).nextCursor!],
    ['a forged key type', Buffer.from(JSON.stringify(['dir', 'letters', 7, 'asc'])).toString('base64url')],
    ['a forged order', Buffer.from(JSON.stringify(['dir', 'letters', 'c', 'sideways'])).toString('base64url')],
  ])('refuses %s as 400 INVALID_INPUT on cursor', (_what, cursor) => {
    invalidCursorOf(() => pageOfDirectory('letters', letters, key, { limit: 2, cursor }));
  });

  test('refuses a cursor of the other order', () => {
    const desc = pageOfDirectory('letters', letters, key, { limit: 2, sortOrder: 'desc' }).nextCursor!;
    expect(invalidCursorOf(() => pageOfDirectory('letters', letters, key, { limit: 2, cursor: desc, sortOrder: 'asc' })).details).toEqual({
      errors: [expect.objectContaining({ message: expect.stringContaining('desc order') })],
    });
  });

  test('two entries with one key are a programming error', () => {
    expect(() => pageOfDirectory('letters', [{ name: 'a' }, { name: 'a' }], key)).toThrow(/share the key/);
  });
});

import { COUNTRY_CODES, EU_MEMBER_STATES, isCountryCode, isRegionCode, jurisdictionOf } from '../../src/domain/countries';

describe('ISO 3166-1 alpha-2 country codes', () => {
  test('the 249 officially assigned codes, each once, each a real country or territory', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const code of COUNTRY_CODES) {
      expect(code).toMatch(/^[A-Z]{2}$/);
      expect(names.of(code)).not.toBe(code);
    }
    expect([...COUNTRY_CODES].sort()).toEqual(COUNTRY_CODES);
  });

  test.each(['US', 'GB', 'DE', 'MX', 'BR', 'NG', 'IN', 'JP', 'AX', 'BQ', 'SS', 'CW'])('%s is a country', (code) => {
    expect(isCountryCode(code)).toBe(true);
  });

  test.each([
    ['UK (reserved, the code is GB)', 'UK'],
    ['EU (not a country)', 'EU'],
    ['XK (user-assigned)', 'XK'],
    ['lower case', 'us'],
    ['alpha-3', 'USA'],
    ['numeric', '840'],
    ['empty', ''],
    ['a regex-valid but unassigned pair', 'ZZ'],
    ['a number', 840],
    ['null', null],
  ])('%s is not a country', (_name, code) => {
    expect(isCountryCode(code)).toBe(false);
  });

  test('a region is a country code or EU', () => {
    expect(isRegionCode('EU')).toBe(true);
    expect(isRegionCode('DE')).toBe(true);
    expect(isRegionCode('UK')).toBe(false);
    expect(isRegionCode('eu')).toBe(false);
  });

  test('the EU has 27 member states, all countries', () => {
    expect(EU_MEMBER_STATES).toHaveLength(27);
    for (const code of EU_MEMBER_STATES) expect(isCountryCode(code)).toBe(true);
  });

  test.each([
    ['EU', 'EU'],
    ['DE', 'EU'],
    ['FR', 'EU'],
    ['NO', 'EU'], // EEA
    ['IS', 'EU'], // EEA
    ['GB', 'UK'],
    ['US', 'US'],
    ['CH', null],
    ['MX', null],
    [null, null],
    [undefined, null],
  ])('jurisdiction of %s is %s', (region, jurisdiction) => {
    expect(jurisdictionOf(region)).toBe(jurisdiction);
  });
});

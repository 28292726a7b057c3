import { defaultUmaDomain } from '../../src/contexts/platforms/domain/uma-domains';
import {
  acceptedAtProblem,
  applyOtherPairs,
  birthDateProblem,
  BUSINESS_OTHER_PAIRS,
  businessTaxIdProblems,
  consentProblems,
  contactChangeProblems,
  duplicateIndexes,
  generatedUmaAddress,
  INDIVIDUAL_OTHER_PAIRS,
  isE164,
  isIpAddress,
  isUmaAddress,
  isValidItin,
  isValidSsn,
  NAICS,
  otherDescriptionProblems,
  parseCalendarDate,
  pastOrTodayProblem,
  taxIdentificationProblems,
} from '../../src/contexts/customers/domain/customer-rules';

const fields = (issues: { path: (string | number)[]; constraint: string }[]) => issues.map((i) => `${i.path.join('.')}:${i.constraint}`);

describe('phone numbers: strict E.164', () => {
  test.each(['+14155550123', '+447911123456', '+12', '+123456789012345'])('%s is accepted', (phone) => {
    expect(isE164(phone)).toBe(true);
  });
  test.each([
    ['no plus', '14155550123'],
    ['leading zero', '+04155550123'],
    ['16 digits', '+1234567890123456'],
    ['one digit', '+1'],
    ['spaces', '+1 415 555 0123'],
    ['dashes', '+1-415-555-0123'],
    ['letters', '+1415555CALL'],
    ['a number', 14155550123],
  ])('%s is refused', (_name, phone) => {
    expect(isE164(phone)).toBe(false);
  });

  test('email and phoneNumber are changed in separate requests', () => {
    expect(fields(contactChangeProblems({ email: 'a@b.co', phoneNumber: '+14155550123' }))).toEqual(['email:exclusive', 'phoneNumber:exclusive']);
    expect(contactChangeProblems({ email: 'a@b.co' })).toEqual([]);
    expect(contactChangeProblems({ phoneNumber: '+14155550123' })).toEqual([]);
  });
});

describe('dates', () => {
  const now = new Date('2026-03-15T12:00:00Z');

  test('a calendar date is YYYY-MM-DD and real', () => {
    expect(parseCalendarDate('2024-02-29')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    for (const bad of [
      '2023-02-29',
      '2023-02-30',
      '1990-13-45',
      '1990-00-10',
      '1990-01-00',
      '1990-1-5',
      '19900105',
      '1990-01-05T00:00:00Z',
      '',
      19900105,
      null,
    ]) {
      expect(parseCalendarDate(bad)).toBeNull();
    }
    expect(parseCalendarDate('1900-02-29')).toBeNull(); // not a leap year
    expect(parseCalendarDate('2000-02-29')).not.toBeNull(); // a leap year
  });

  test('a date of birth is real and in the past', () => {
    expect(birthDateProblem('1990-01-15', now)).toBeNull();
    expect(birthDateProblem('2026-03-14', now)).toBeNull();
    expect(birthDateProblem('2026-03-15', now)).toMatchObject({ constraint: 'past' });
    expect(birthDateProblem('2030-01-01', now)).toMatchObject({ constraint: 'past' });
    expect(birthDateProblem('1990-02-30', now)).toMatchObject({ constraint: 'date' });
    expect(birthDateProblem('15/01/1990', now)).toMatchObject({ constraint: 'date' });
    expect(birthDateProblem('1899-12-31', now)).toMatchObject({ constraint: 'minimum' });
    expect(birthDateProblem('1900-01-01', now)).toBeNull();
  });

  test('an incorporation date is real and not in the future', () => {
    expect(pastOrTodayProblem('2026-03-15', now)).toBeNull();
    expect(pastOrTodayProblem('2018-03-14', now)).toBeNull();
    expect(pastOrTodayProblem('2026-03-16', now)).toMatchObject({ constraint: 'past' });
    expect(pastOrTodayProblem('2018-02-30', now)).toMatchObject({ constraint: 'date' });
  });
});

describe('SSN and ITIN numbers', () => {
  test.each(['123-45-6789', '001-01-0001', '899-99-9999', '665-12-3456'])('SSN %s is valid', (ssn) => {
    expect(isValidSsn(ssn)).toBe(true);
  });
  test.each([
    ['no dashes', '123456789'],
    ['area 000', '000-12-3456'],
    ['area 666', '666-12-3456'],
    ['area 9xx (an ITIN)', '912-70-3456'],
    ['group 00', '123-00-4567'],
    ['serial 0000', '123-45-0000'],
    ['too short', '123-45-678'],
  ])('SSN with %s is invalid', (_name, ssn) => {
    expect(isValidSsn(ssn)).toBe(false);
  });

  test.each(['900-50-1234', '912-65-1234', '999-70-0000', '912-88-1234', '912-90-1234', '912-92-1234', '912-94-1234', '912-99-1234'])(
    'ITIN %s is valid',
    (itin) => {
      expect(isValidItin(itin)).toBe(true);
    },
  );
  test.each([
    ['not starting with 9', '812-70-1234'],
    ['group 49', '912-49-1234'],
    ['group 66', '912-66-1234'],
    ['group 69', '912-69-1234'],
    ['group 89', '912-89-1234'],
    ['group 93', '912-93-1234'],
    ['group 00', '912-00-1234'],
    ['no dashes', '912701234'],
  ])('ITIN with %s is invalid', (_name, itin) => {
    expect(isValidItin(itin)).toBe(false);
  });
});

describe('tax identification of individuals', () => {
  test.each([
    [{ idType: 'SSN', identifier: '123-45-6789' }],
    [{ idType: 'SSN', identifier: '123-45-6789', countryOfIssuance: 'US' }],
    [{ idType: 'ITIN', identifier: '912-70-1234' }],
    [{ idType: 'NON_US_TAX_ID', identifier: 'DE 123/456/78901', countryOfIssuance: 'DE' }],
    [{ idType: 'NON_US_TAX_ID', identifier: 'AB123456C', countryOfIssuance: 'GB' }],
    [{}],
  ])('%j is accepted', (values) => {
    expect(taxIdentificationProblems(values)).toEqual([]);
  });

  test.each([
    ['identifier without idType', { identifier: '123-45-6789' }, ['idType:required']],
    ['idType without identifier', { idType: 'SSN' }, ['identifier:required']],
    ['countryOfIssuance alone', { countryOfIssuance: 'US' }, ['countryOfIssuance:dependentRequired']],
    ['an SSN issued elsewhere', { idType: 'SSN', identifier: '123-45-6789', countryOfIssuance: 'DE' }, ['countryOfIssuance:enum']],
    ['an ITIN issued elsewhere', { idType: 'ITIN', identifier: '912-70-1234', countryOfIssuance: 'MX' }, ['countryOfIssuance:enum']],
    ['a US holder with a non-US tax id (issuing country defaults to US)', { idType: 'NON_US_TAX_ID', identifier: 'X1234' }, ['idType:enum']],
    ['a US holder with a non-US tax id (US given)', { idType: 'NON_US_TAX_ID', identifier: 'X1234', countryOfIssuance: 'US' }, ['idType:enum']],
    ['an EIN for an individual', { idType: 'EIN', identifier: '12-3456789' }, ['idType:enum']],
    ['an EIN issued elsewhere', { idType: 'EIN', identifier: '12-3456789', countryOfIssuance: 'DE' }, ['idType:enum']],
    ['an SSN without dashes', { idType: 'SSN', identifier: '123456789' }, ['identifier:pattern']],
    ['an SSN never issued (area 000)', { idType: 'SSN', identifier: '000-12-3456' }, ['identifier:pattern']],
    ['an ITIN given as SSN', { idType: 'SSN', identifier: '912-70-1234' }, ['identifier:pattern']],
    ['an SSN given as ITIN', { idType: 'ITIN', identifier: '123-45-6789' }, ['identifier:pattern']],
    ['an ITIN outside the ITIN groups', { idType: 'ITIN', identifier: '912-45-1234' }, ['identifier:pattern']],
    ['a non-US tax id with symbols', { idType: 'NON_US_TAX_ID', identifier: 'AB#12', countryOfIssuance: 'FR' }, ['identifier:pattern']],
  ])('%s is refused', (_name, values, expected) => {
    expect(fields(taxIdentificationProblems(values))).toEqual(expected);
  });

  test('values the schema refuses anyway (unknown idType, bad country, over-long number) add nothing here', () => {
    expect(taxIdentificationProblems({ idType: 'PASSPORT', identifier: 'x' })).toEqual([]);
    expect(taxIdentificationProblems({ idType: 'SSN', identifier: '123-45-6789', countryOfIssuance: 'usa' })).toEqual([]);
    expect(taxIdentificationProblems({ idType: 'NON_US_TAX_ID', identifier: 'A'.repeat(101), countryOfIssuance: 'FR' })).toEqual([]);
  });

  test('messages never contain the number', () => {
    const issues = taxIdentificationProblems({ idType: 'SSN', identifier: '000-12-3456' });
    expect(JSON.stringify(issues)).not.toContain('000-12-3456');
  });
});

describe('business tax id', () => {
  test('a US business gives an EIN', () => {
    expect(businessTaxIdProblems({ country: 'US', taxId: '12-3456789' })).toEqual([]);
    expect(businessTaxIdProblems({ country: 'US', taxId: '123456789' })).toEqual([]);
    expect(fields(businessTaxIdProblems({ country: 'US', taxId: 'TAX-1' }))).toEqual(['taxId:pattern']);
    expect(fields(businessTaxIdProblems({ country: 'US', taxId: '12-345678' }))).toEqual(['taxId:pattern']);
  });
  test('other countries keep their own formats', () => {
    expect(businessTaxIdProblems({ country: 'DE', taxId: 'DE123456789' })).toEqual([]);
    expect(businessTaxIdProblems({ taxId: 'anything' })).toEqual([]);
  });
  test('NAICS codes have 2 to 6 digits', () => {
    for (const ok of ['52', '5223', '522320']) expect(NAICS.test(ok)).toBe(true);
    for (const bad of ['5', '5223201', '52a', '']) expect(NAICS.test(bad)).toBe(false);
  });
});

describe('the OTHER rule', () => {
  test.each([
    ['sourceOfFundsCategories', 'sourceOfFundsOtherDescription', ['SALARY', 'OTHER'], ['SALARY']],
    ['sourceOfWealthCategories', 'sourceOfWealthOtherDescription', ['OTHER'], ['INVESTMENTS']],
    ['purposeOfAccount', 'purposeOfAccountOtherDescription', 'OTHER', 'P2P_TRANSFERS'],
  ])('%s: %s is required with OTHER and refused without', (category, description, withOther, withoutOther) => {
    expect(fields(otherDescriptionProblems({ [category]: withOther }, INDIVIDUAL_OTHER_PAIRS))).toEqual([`${description}:required`]);
    expect(otherDescriptionProblems({ [category]: withOther, [description]: 'Contest winnings' }, INDIVIDUAL_OTHER_PAIRS)).toEqual([]);
    expect(fields(otherDescriptionProblems({ [category]: withoutOther, [description]: 'Contest winnings' }, INDIVIDUAL_OTHER_PAIRS))).toEqual([
      `${description}:notAllowed`,
    ]);
    expect(fields(otherDescriptionProblems({ [description]: 'Contest winnings' }, INDIVIDUAL_OTHER_PAIRS))).toEqual([`${description}:notAllowed`]);
    expect(otherDescriptionProblems({ [category]: withoutOther }, INDIVIDUAL_OTHER_PAIRS)).toEqual([]);
  });

  test('every pair is judged in one pass', () => {
    const issues = otherDescriptionProblems(
      { sourceOfFundsCategories: ['OTHER'], sourceOfWealthCategories: ['SALARY'], sourceOfWealthOtherDescription: 'x', purposeOfAccount: 'OTHER' },
      INDIVIDUAL_OTHER_PAIRS,
    );
    expect(fields(issues)).toEqual([
      'sourceOfFundsOtherDescription:required',
      'sourceOfWealthOtherDescription:notAllowed',
      'purposeOfAccountOtherDescription:required',
    ]);
  });

  test('businesses: source of funds and purpose of account', () => {
    expect(
      fields(otherDescriptionProblems({ sourceOfFundsCategories: ['OPERATING_REVENUE', 'OTHER'], purposeOfAccount: 'OTHER' }, BUSINESS_OTHER_PAIRS)),
    ).toEqual(['sourceOfFundsOtherDescription:required', 'purposeOfAccountOtherDescription:required']);
  });

  test('an update to a category without OTHER drops the description that no longer applies', () => {
    const stored = { sourceOfFundsCategories: ['OTHER'], sourceOfFundsOtherDescription: 'Royalties', pepStatus: 'NONE' };
    expect(applyOtherPairs(stored, { sourceOfFundsCategories: ['SALARY'] }, INDIVIDUAL_OTHER_PAIRS)).toEqual({
      sourceOfFundsCategories: ['SALARY'],
      pepStatus: 'NONE',
    });
    expect(applyOtherPairs(stored, { sourceOfFundsOtherDescription: 'Book royalties' }, INDIVIDUAL_OTHER_PAIRS)).toEqual({
      ...stored,
      sourceOfFundsOtherDescription: 'Book royalties',
    });
    expect(applyOtherPairs(stored, { pepStatus: 'DOMESTIC' }, INDIVIDUAL_OTHER_PAIRS)).toEqual({ ...stored, pepStatus: 'DOMESTIC' });
    expect(stored.sourceOfFundsOtherDescription).toBe('Royalties');
  });
});

describe('lists', () => {
  test('duplicateIndexes names every repeat after the first', () => {
    expect(duplicateIndexes(['USD', 'EUR', 'USD', 'USD'])).toEqual([2, 3]);
    expect(duplicateIndexes([{ t: 'a' }, { t: 'a' }], (x) => (x as { t: string }).t)).toEqual([1]);
    expect(duplicateIndexes([])).toEqual([]);
  });
});

describe('agreement consents', () => {
  test('IP addresses: v4 and v6, at most 45 characters', () => {
    for (const ok of ['203.0.113.7', '::1', '2001:db8::1', '::ffff:192.0.2.128']) expect(isIpAddress(ok)).toBe(true);
    for (const bad of ['203.0.113', '256.1.1.1', 'localhost', '', `${'1:'.repeat(30)}1`, 7]) expect(isIpAddress(bad)).toBe(false);
  });

  test('acceptedAt is not in the future (five minutes of clock skew allowed)', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    expect(acceptedAtProblem('2026-03-15T11:00:00Z', now)).toBeNull();
    expect(acceptedAtProblem('2026-03-15T12:04:00Z', now)).toBeNull();
    expect(acceptedAtProblem('2026-03-15T12:06:00Z', now)).toMatchObject({ constraint: 'past' });
    expect(acceptedAtProblem('not a date', now)).toBeNull();
  });

  const entry = (agreementType: string) => ({
    agreementType,
    termsVersion: '2025-10-13',
    acceptedAt: '2025-10-20T00:00:00Z',
    ipAddress: '203.0.113.7',
    acceptanceMethod: 'CHECKBOX',
  });

  test('agreementConsents and the deprecated endUserTermsConsent are exclusive', () => {
    const { agreementType: _t, ...single } = entry('SVC_END_USER_TERMS');
    expect(fields(consentProblems({ agreementConsents: [entry('SVC_END_USER_TERMS')], endUserTermsConsent: single }))).toEqual([
      'agreementConsents:exclusive',
      'endUserTermsConsent:exclusive',
    ]);
    expect(consentProblems({ endUserTermsConsent: single })).toEqual([]);
  });

  test('at most one entry per agreement type', () => {
    expect(fields(consentProblems({ agreementConsents: [entry('SVC_END_USER_TERMS'), entry('SVC_PRIVACY_NOTICE'), entry('SVC_END_USER_TERMS')] }))).toEqual([
      'agreementConsents.2.agreementType:unique',
    ]);
    expect(consentProblems({ agreementConsents: [entry('SVC_END_USER_TERMS'), entry('SVC_PRIVACY_NOTICE')] })).toEqual([]);
  });
});

describe('UMA addresses', () => {
  test.each(['$alice@uma.example.com', '$john.doe@uma.domain.com', '$a@b.co', '$Alice_1+tips@pay.example.org', '$x-y@sandbox.uma.local'])(
    '%s is valid',
    (a) => {
      expect(isUmaAddress(a)).toBe(true);
    },
  );
  test.each([
    ['no dollar', 'alice@uma.example.com'],
    ['no domain', '$alice'],
    ['a dotless domain', '$alice@localhost'],
    ['a space', '$al ice@uma.example.com'],
    ['an empty user', '$@uma.example.com'],
    ['a user ending in a dot', '$alice.@uma.example.com'],
    ['a 65-character user', `$${'a'.repeat(65)}@uma.example.com`],
    ['a domain label starting with a dash', '$alice@-uma.example.com'],
  ])('%s is refused', (_name, a) => {
    expect(isUmaAddress(a)).toBe(false);
  });

  test('generated addresses are valid, built from the platform customer id and the platform domain', () => {
    expect(generatedUmaAddress('Cust-42', 'pay.example.com', 'ab12cd34')).toBe('$cust-42.ab12cd34@pay.example.com');
    const fallback = defaultUmaDomain('Platform:0b8a54c2-6f0e-4c61-9a49-1f2ab3c4d5e6');
    expect(generatedUmaAddress('###', fallback, 'ab12cd34')).toBe(`$user.ab12cd34@${fallback}`);
    expect(generatedUmaAddress('--x--', fallback, 'ff')).toBe(`$x.ff@${fallback}`);
    for (const id of ['Cust-42', '###', 'a'.repeat(300), 'ümlaut@domain', '__.', '0'])
      expect(isUmaAddress(generatedUmaAddress(id, fallback, '0a1b2c3d'))).toBe(true);
  });
});

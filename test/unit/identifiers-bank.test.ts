/**
 * Format checks for bank and fiat account identifiers. Valid vectors come from each rail's own
 * documentation or well-known published examples (noted beside them); invalid ones change one
 * thing: the checksum, the length or a character.
 */
import { checkAbaRoutingNumber } from '../../src/contexts/external-accounts/domain/identifiers/aba-routing-number';
import { type IdentifierCheck } from '../../src/contexts/external-accounts/domain/identifiers/check';
import { checkClabe } from '../../src/contexts/external-accounts/domain/identifiers/clabe';
import { checkIban, IBAN_LENGTHS, ibanCountry } from '../../src/contexts/external-accounts/domain/identifiers/iban';
import { checkSortCode, checkUkAccountNumber } from '../../src/contexts/external-accounts/domain/identifiers/sort-code';
import { bicCountry, checkBic } from '../../src/contexts/external-accounts/domain/identifiers/bic';
import {
  checkCanadianAccountNumber,
  checkCanadianInstitutionNumber,
  checkCanadianTransitNumber,
} from '../../src/contexts/external-accounts/domain/identifiers/canada';
import { checkIfsc } from '../../src/contexts/external-accounts/domain/identifiers/ifsc';
import { checkUpiVpa } from '../../src/contexts/external-accounts/domain/identifiers/upi';

function expectAccepted(check: IdentifierCheck, normalized: string): void {
  expect(check).toEqual({ valid: true, normalized });
}

function expectRefused(check: IdentifierCheck, reason: string | RegExp): void {
  expect(check.valid).toBe(false);
  if (!check.valid) expect(check.reason).toMatch(reason);
}

describe('ABA routing number', () => {
  test.each([
    ['011000015', 'Federal Reserve Bank of Boston'],
    ['021000021', 'JPMorgan Chase, New York'],
    ['011000028', 'State Street Bank'],
    ['026009593', 'Bank of America, New York'],
    ['121000248', 'Wells Fargo, San Francisco'],
    ['322271627', 'JPMorgan Chase, California (thrift range 21–32)'],
    ['611000004', 'constructed: electronic range 61–72'],
    ['801000005', "constructed: traveller's cheques (80)"],
  ])('%s (%s) is accepted', (routingNumber) => {
    expectAccepted(checkAbaRoutingNumber(routingNumber), routingNumber);
  });

  test('surrounding spaces are dropped', () => {
    expectAccepted(checkAbaRoutingNumber(' 021000021 '), '021000021');
  });

  test('a wrong check digit is refused', () => {
    expectRefused(checkAbaRoutingNumber('021000022'), 'routing number checksum does not match');
    expectRefused(checkAbaRoutingNumber('011000016'), 'checksum');
  });

  test.each(['02100002', '0210000211', ''])('%p has the wrong length', (routingNumber) => {
    expectRefused(checkAbaRoutingNumber(routingNumber), 'exactly 9 digits');
  });

  test.each(['02100002A', '021-000-021', '０２１００００２１'])('%p has a character that is not a digit', (routingNumber) => {
    expectRefused(checkAbaRoutingNumber(routingNumber), 'digits only');
  });

  test.each([
    ['131000005', '13 is unassigned'],
    ['201000003', '20 is unassigned'],
    ['731000007', '73 is unassigned'],
    ['000000000', '00 (government) is refused, and with it the all-zero placeholder'],
    ['000000518', '00: US Treasury check processing, not a payable account'],
  ])('%s is refused although its checksum passes: %s', (routingNumber) => {
    expectRefused(checkAbaRoutingNumber(routingNumber), 'Federal Reserve routing symbol');
  });
});

describe('IBAN', () => {
  test.each([
    ['GB82WEST12345698765432', 'ECBS / SWIFT registry, United Kingdom'],
    ['GB29NWBK60161331926819', 'SWIFT registry, United Kingdom'],
    ['DE89370400440532013000', 'SWIFT registry, Germany'],
    ['AE070331234567890123456', 'SWIFT registry, United Arab Emirates'],
    ['DK5000400440116243', 'SWIFT registry, Denmark'],
    ['EG380019000500000000263180002', 'SWIFT registry, Egypt'],
    ['PK36SCBL0000001123456702', 'SWIFT registry, Pakistan'],
    ['FR1420041010050500013M02606', 'SWIFT registry, France (letter in the BBAN)'],
    ['BR1800360305000010009795493C1', 'SWIFT registry, Brazil'],
    ['MT84MALT011000012345MTLCAST001S', 'SWIFT registry, Malta'],
    ['NO9386011117947', 'SWIFT registry, Norway (shortest, 15)'],
    ['LC55HEMM000100010012001200023015', 'SWIFT registry, Saint Lucia (32)'],
    ['RU0304452522540817810538091310419', 'SWIFT registry, Russia (longest, 33)'],
    ['XK051212012345678906', 'SWIFT registry, Kosovo'],
  ])('%s (%s) is accepted', (iban) => {
    expectAccepted(checkIban(iban), iban);
  });

  test('the paper format (groups of four) and lower case normalize to the electronic format', () => {
    expectAccepted(checkIban('GB82 WEST 1234 5698 7654 32'), 'GB82WEST12345698765432');
    expectAccepted(checkIban(' de89 3704 0044 0532 0130 00 '), 'DE89370400440532013000');
  });

  test('a wrong checksum is refused', () => {
    expectRefused(checkIban('GB82WEST12345698765433'), 'IBAN checksum does not match');
    expectRefused(checkIban('GB28NWBK60161331926819'), 'checksum');
    // two swapped digits
    expectRefused(checkIban('DE89370400440532031000'), 'checksum');
  });

  test.each(['GB82WEST1234569876543', 'GB82WEST123456987654321', 'DE8937040044053201300', 'NO938601111794'])('%s has the wrong length for its country', (iban) => {
    expectRefused(checkIban(iban), /must be \d+ characters long/);
  });

  test.each(['GB82WEST12345698765!32', 'GB82-WEST-1234-5698-7654-32', 'DE89370400440532013000ß'])('%s has a character that is not allowed', (iban) => {
    expectRefused(checkIban(iban), 'only letters, digits and spaces');
  });

  test.each(['', '   '])('%p is empty', (iban) => {
    expectRefused(checkIban(iban), 'IBAN is empty');
  });

  test.each(['8937040044053201300', 'D189370400440532013000', 'DEXX370400440532013000'])('%s does not start with a country code and check digits', (iban) => {
    expectRefused(checkIban(iban), 'two-letter country code and two check digits');
  });

  test.each(['US64SVBKUS6S3300958879', 'CA12345678901234567890', 'UK82WEST12345698765432'])('%s is from a country outside the IBAN registry', (iban) => {
    expectRefused(checkIban(iban), 'not in the IBAN registry');
  });

  test.each(['GB00WEST12345698765432', 'GB01WEST12345698765432', 'GB99WEST12345698765432'])('%s has check digits outside 02–98', (iban) => {
    expectRefused(checkIban(iban), 'between 02 and 98');
  });

  test('an expected country restricts the accepted prefix (currency variants)', () => {
    expectAccepted(checkIban('AE070331234567890123456', 'AE'), 'AE070331234567890123456');
    expectAccepted(checkIban('DK5000400440116243', 'DK'), 'DK5000400440116243');
    expectAccepted(checkIban('EG380019000500000000263180002', 'EG'), 'EG380019000500000000263180002');
    expectAccepted(checkIban('PK36SCBL0000001123456702', 'pk'), 'PK36SCBL0000001123456702');
    expectRefused(checkIban('DE89370400440532013000', 'AE'), 'IBAN country is DE, expected AE');
    expectRefused(checkIban('GB82WEST12345698765432', 'DK'), 'expected DK');
  });

  test('the length table has the registry countries, each a two-letter code with a plausible length', () => {
    expect(Object.keys(IBAN_LENGTHS).length).toBeGreaterThanOrEqual(80);
    for (const [country, length] of Object.entries(IBAN_LENGTHS)) {
      expect(country).toMatch(/^[A-Z]{2}$/);
      expect(length).toBeGreaterThanOrEqual(15);
      expect(length).toBeLessThanOrEqual(34);
    }
    expect(IBAN_LENGTHS).toMatchObject({ GB: 22, DE: 22, FR: 27, NL: 18, AE: 23, DK: 18, EG: 29, PK: 24, SA: 24, TR: 26 });
  });

  test('ibanCountry gives the country of a valid IBAN, null otherwise', () => {
    expect(ibanCountry('DE89370400440532013000')).toBe('DE');
    expect(ibanCountry('ae07 0331 2345 6789 0123 456')).toBe('AE');
    expect(ibanCountry('GB82WEST12345698765433')).toBeNull();
    expect(ibanCountry('US64SVBKUS6S3300958879')).toBeNull();
    expect(ibanCountry('')).toBeNull();
  });
});

describe('CLABE', () => {
  test.each([
    ['002010077777777771', 'Banco de México example'],
    ['032180000118359719', 'published example (IXE, plaza 180)'],
  ])('%s (%s) is accepted', (clabe) => {
    expectAccepted(checkClabe(clabe), clabe);
  });

  test('a wrong check digit is refused', () => {
    expectRefused(checkClabe('002010077777777772'), 'CLABE check digit does not match');
    // two digits swapped
    expectRefused(checkClabe('002010077777777717'), 'check digit');
  });

  test.each(['00201007777777777', '0020100777777777711', ''])('%p has the wrong length', (clabe) => {
    expectRefused(checkClabe(clabe), 'exactly 18 digits');
  });

  test.each(['00201007777777777A', '002 010 07777777777 1'])('%p has a character that is not a digit', (clabe) => {
    expectRefused(checkClabe(clabe), 'digits only');
  });
});

describe('UK sort code and account number', () => {
  test.each([
    ['601613', '601613'],
    ['60-16-13', '601613'],
    ['60 16 13', '601613'],
    [' 40-47-84 ', '404784'],
  ])('sort code %p is accepted as %s', (sortCode, normalized) => {
    expectAccepted(checkSortCode(sortCode), normalized);
  });

  test.each(['60161', '6016133', '60-16-1', '60-16-133', '60-16 13', '6016-13', '60--16-13'])('sort code %p has the wrong length or grouping', (sortCode) => {
    expectRefused(checkSortCode(sortCode), 'must be 6 digits');
  });

  test.each(['60.16.13', '60-16-1A', '60/16/13'])('sort code %p has a character that is not allowed', (sortCode) => {
    expectRefused(checkSortCode(sortCode), 'digits only');
  });

  test('account number: 8 digits (31926819 from the registry example GB29 NWBK 6016 1331 9268 19)', () => {
    expectAccepted(checkUkAccountNumber('31926819'), '31926819');
    expectAccepted(checkUkAccountNumber(' 00012345 '), '00012345');
  });

  test.each(['3192681', '319268190', ''])('account number %p has the wrong length', (accountNumber) => {
    expectRefused(checkUkAccountNumber(accountNumber), 'exactly 8 digits');
  });

  test.each(['3192681A', '3192-6819', '31 92 68 19'])('account number %p has a character that is not a digit', (accountNumber) => {
    expectRefused(checkUkAccountNumber(accountNumber), 'digits only');
  });
});

describe('IFSC', () => {
  test.each([
    ['KARB0000001', 'Karnataka Bank'],
    ['SBIN0000300', 'State Bank of India, Mumbai main branch'],
    ['HDFC0CAGSBK', 'alphanumeric branch code (HDFC sub-member)'],
  ])('%s (%s) is accepted', (ifsc) => {
    expectAccepted(checkIfsc(ifsc), ifsc);
  });

  test('lower case is upper-cased', () => {
    expectAccepted(checkIfsc(' sbin0000300 '), 'SBIN0000300');
  });

  test.each(['SBIN000030', 'SBIN00003000', ''])('%p has the wrong length', (ifsc) => {
    expectRefused(checkIfsc(ifsc), 'exactly 11 characters');
  });

  test.each(['SBIN-000300', 'SBIN 000300', 'SBIN00003ß0'])('%p has a character that is not allowed', (ifsc) => {
    expectRefused(checkIfsc(ifsc), 'letters and digits only');
  });

  test('the fifth character must be 0', () => {
    expectRefused(checkIfsc('SBIN1000300'), 'fifth character must be 0');
    expectRefused(checkIfsc('SBINO000300'), 'fifth character must be 0');
  });

  test('the bank code is four letters', () => {
    expectRefused(checkIfsc('SB1N0000300'), 'four-letter bank code');
  });
});

describe('BIC', () => {
  test.each([
    ['DEUTDEFF', 'Deutsche Bank, Frankfurt'],
    ['DEUTDEFF500', 'Deutsche Bank, Frankfurt, with a branch code'],
    ['NWBKGB2L', 'NatWest, London'],
    ['BOFAUS3N', 'Bank of America'],
    ['CHASUS33XXX', 'JPMorgan Chase, primary office'],
    ['RBKOXKPR', 'Raiffeisen Bank Kosovo (XK, assigned by SWIFT)'],
  ])('%s (%s) is accepted', (bic) => {
    expectAccepted(checkBic(bic), bic);
  });

  test('lower case is upper-cased; the 8 or 11 form is kept as given', () => {
    expectAccepted(checkBic(' deutdeff '), 'DEUTDEFF');
    expectAccepted(checkBic('chasus33xxx'), 'CHASUS33XXX');
  });

  test.each(['DEUTDEF', 'DEUTDEFF5', 'DEUTDEFF50', 'DEUTDEFF5000', ''])('%p has the wrong length', (bic) => {
    expectRefused(checkBic(bic), '8 or 11 characters');
  });

  test.each(['DEUT DEFF', 'DEUT-DE-FF', 'DEUTDEF!', 'DEUTDEFß'])('%p has a character that is not allowed', (bic) => {
    expectRefused(checkBic(bic), 'letters and digits only');
  });

  test('the institution code is four letters', () => {
    expectRefused(checkBic('DEU1DEFF'), 'four-letter institution code');
  });

  test.each([
    ['DEUTZZFF', 'ZZ is not assigned'],
    ['DEUTUKFF', 'UK is reserved, the code is GB'],
    ['DEUTEUFF', 'EU is not a country'],
    ['DEUT12FF', 'digits'],
  ])('%s is refused: %s', (bic) => {
    expectRefused(checkBic(bic), 'ISO 3166-1 country code');
  });

  test('bicCountry gives the country of a valid BIC, null otherwise', () => {
    expect(bicCountry('NWBKGB2L')).toBe('GB');
    expect(bicCountry('deutdeff500')).toBe('DE');
    expect(bicCountry('DEUTZZFF')).toBeNull();
    expect(bicCountry('bad')).toBeNull();
  });
});

describe('UPI virtual payment address', () => {
  test.each(['someone@upi', 'john.doe-1_x@oksbi', 'a@b', '9876543210@ybl', 'Merchant.Name@HDFCBANK'])('%s is accepted', (vpa) => {
    expectAccepted(checkUpiVpa(vpa), vpa);
  });

  test('surrounding spaces are dropped, case is kept', () => {
    expectAccepted(checkUpiVpa(' Someone@okaxis '), 'Someone@okaxis');
  });

  test.each(['a@', 'ab', '', `${'a'.repeat(250)}@upibank`])('%p has the wrong length', (vpa) => {
    expectRefused(checkUpiVpa(vpa), 'between 3 and 255 characters');
  });

  test.each(['john doe@upi', 'john@ok-sbi', 'john@ok.sbi', 'john@upi@x', 'john+1@upi', '@upi', 'john@', 'johnupi', 'jöhn@upi'])('%p is not a VPA', (vpa) => {
    expectRefused(checkUpiVpa(vpa), 'UPI address must be a handle');
  });
});

describe('Canadian bank account', () => {
  test.each(['001', '003', '004', '815'])('institution number %s is accepted', (institution) => {
    expectAccepted(checkCanadianInstitutionNumber(institution), institution);
  });

  test.each(['01', '0001', ''])('institution number %p has the wrong length', (institution) => {
    expectRefused(checkCanadianInstitutionNumber(institution), 'institution number must be exactly 3 digits');
  });

  test.each(['0A1', '00-1'])('institution number %p has a character that is not a digit', (institution) => {
    expectRefused(checkCanadianInstitutionNumber(institution), 'institution number must contain digits only');
  });

  test.each(['12345', '00011'])('transit number %s is accepted', (transit) => {
    expectAccepted(checkCanadianTransitNumber(transit), transit);
  });

  test('surrounding spaces are dropped', () => {
    expectAccepted(checkCanadianTransitNumber(' 12345 '), '12345');
  });

  test.each(['1234', '123456'])('transit number %p has the wrong length', (transit) => {
    expectRefused(checkCanadianTransitNumber(transit), 'transit number must be exactly 5 digits');
  });

  test.each(['1234a', '12 345'])('transit number %p has a character that is not a digit', (transit) => {
    expectRefused(checkCanadianTransitNumber(transit), 'transit number must contain digits only');
  });

  test.each(['1234567', '123456789', '123456789012'])('account number %s is accepted', (account) => {
    expectAccepted(checkCanadianAccountNumber(account), account);
  });

  test.each(['123456', '1234567890123'])('account number %p has the wrong length', (account) => {
    expectRefused(checkCanadianAccountNumber(account), 'account number must be between 7 and 12 digits');
  });

  test.each(['12345a7', '1234-567'])('account number %p has a character that is not a digit', (account) => {
    expectRefused(checkCanadianAccountNumber(account), 'account number must contain digits only');
  });
});

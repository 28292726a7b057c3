/**
 * Format checks for bank and fiat account identifiers. Valid vectors come from each rail's own
 * documentation or well-known published examples (noted beside them); invalid ones change one
 * thing: the checksum, the length or a character.
 */
import { checkAbaRoutingNumber } from '../../src/domain/identifiers/aba-routing-number';
import { bicCountry, checkBic } from '../../src/domain/identifiers/bic';
import { checkCnpj, checkCpf, checkPixKey, type PixKeyType } from '../../src/domain/identifiers/brazil';
import { checkCanadianAccountNumber, checkCanadianInstitutionNumber, checkCanadianTransitNumber } from '../../src/domain/identifiers/canada';
import { type IdentifierCheck } from '../../src/domain/identifiers/check';
import { checkClabe } from '../../src/domain/identifiers/clabe';
import { checkEmailAddress } from '../../src/domain/identifiers/email';
import { checkIban, IBAN_LENGTHS, ibanCountry } from '../../src/domain/identifiers/iban';
import { checkIfsc } from '../../src/domain/identifiers/ifsc';
import { checkE164, checkMobileMoneyPhone, E164_PATTERN, MOBILE_MONEY_PHONE_PATTERNS } from '../../src/domain/identifiers/phone';
import { checkSortCode, checkUkAccountNumber } from '../../src/domain/identifiers/sort-code';
import { checkUpiVpa } from '../../src/domain/identifiers/upi';

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

  test.each(['GB82WEST1234569876543', 'GB82WEST123456987654321', 'DE8937040044053201300', 'NO938601111794'])(
    '%s has the wrong length for its country',
    (iban) => {
      expectRefused(checkIban(iban), /must be \d+ characters long/);
    },
  );

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

describe('E.164 phone number', () => {
  test.each([
    ['+14155552671', 'ITU / Twilio E.164 example, US'],
    ['+442071838750', 'United Kingdom'],
    ['+254712345678', 'Kenya'],
    ['+1234567', 'shortest accepted: 7 digits'],
    ['+123456789012345', 'longest E.164: 15 digits'],
  ])('%s (%s) is accepted', (phone) => {
    expectAccepted(checkE164(phone), phone);
  });

  test('spaces and hyphens are dropped', () => {
    expectAccepted(checkE164(' +254 712 345 678 '), '+254712345678');
    expectAccepted(checkE164('+1-415-555-2671'), '+14155552671');
  });

  test.each(['+123456', '+1234567890123456', '+'])('%p has the wrong number of digits', (phone) => {
    expectRefused(checkE164(phone), 'between 7 and 15 digits');
  });

  test.each(['+1415555267a', '+1 (415) 555-2671', '+44.20.7183.8750', '++14155552671'])('%p has a character that is not allowed', (phone) => {
    expectRefused(checkE164(phone), 'only digits after the +');
  });

  test.each(['14155552671', '0014155552671', ''])('%p does not start with +', (phone) => {
    expectRefused(checkE164(phone), 'must start with +');
  });

  test('a country calling code never starts with 0', () => {
    expectRefused(checkE164('+0123456789'), 'cannot start with 0');
  });

  test('a calling-code prefix, with or without +, restricts the country', () => {
    expectAccepted(checkE164('+254712345678', '254'), '+254712345678');
    expectAccepted(checkE164('+254712345678', '+254'), '+254712345678');
    expectRefused(checkE164('+255712345678', '254'), 'must start with the calling code +254');
  });

  test('the generic pattern is E.164: + and 7 to 15 digits, not starting with 0', () => {
    expect(E164_PATTERN.test('+14155552671')).toBe(true);
    expect(E164_PATTERN.test('+0155552671')).toBe(false);
    expect(E164_PATTERN.test('+123456')).toBe(false);
  });

  test.each([
    ['KES', '+254712345678'],
    ['TZS', '+255712345678'],
    ['RWF', '+250788123456'],
    ['ZMW', '+260971234567'],
    ['IDR', '+62812345678'],
    ['IDR', '+62812345678901'],
  ] as const)('%s mobile-money number %s is accepted', (currency, phone) => {
    expect(MOBILE_MONEY_PHONE_PATTERNS[currency].test(phone)).toBe(true);
    expectAccepted(checkMobileMoneyPhone(phone, currency), phone);
  });

  test('mobile-money numbers are normalized before matching', () => {
    expectAccepted(checkMobileMoneyPhone('+254 712-345-678', 'KES'), '+254712345678');
  });

  test.each([
    ['KES', '+25471234567', 'one digit short'],
    ['KES', '+2547123456789', 'one digit long'],
    ['KES', '+255712345678', 'a Tanzanian number'],
    ['TZS', '+254712345678', 'a Kenyan number'],
    ['RWF', '+25078812345', 'one digit short'],
    ['ZMW', '+26097123456', 'one digit short'],
    ['IDR', '+6281234567', '8 digits after +62'],
    ['IDR', '+628123456789012', '13 digits after +62'],
  ] as const)('%s mobile-money number %s is refused (%s)', (currency, phone, _why) => {
    expectRefused(checkMobileMoneyPhone(phone, currency), `does not match the ${currency} mobile-money number format`);
  });

  test('a mobile-money number must first be an E.164 number', () => {
    expectRefused(checkMobileMoneyPhone('0712345678', 'KES'), 'must start with +');
  });
});

describe('e-mail address', () => {
  test.each([
    'user@example.com',
    'first.last+tag@sub.example.co.uk',
    "o'brien@example.ie",
    'x@example.museum',
    'user@xn--bcher-kva.example',
    'user@123.example.com',
  ])('%s is accepted', (address) => {
    expectAccepted(checkEmailAddress(address), address);
  });

  test('the domain is lower-cased, the local part kept as written', () => {
    expectAccepted(checkEmailAddress(' User.Name@Example.COM '), 'User.Name@example.com');
  });

  test('local part: 64 characters at most', () => {
    const domain = '@example.com';
    expectAccepted(checkEmailAddress(`${'a'.repeat(64)}${domain}`), `${'a'.repeat(64)}${domain}`);
    expectRefused(checkEmailAddress(`${'a'.repeat(65)}${domain}`), 'local part must be at most 64 characters');
  });

  test('whole address: 254 characters at most', () => {
    const label = 'a'.repeat(63);
    const address254 = `${'b'.repeat(58)}@${label}.${label}.${label}.com`;
    expect(address254).toHaveLength(254);
    expectAccepted(checkEmailAddress(address254), address254);
    expectRefused(checkEmailAddress(`b${address254}`), 'at most 254 characters');
  });

  test('a domain label is at most 63 characters', () => {
    expectRefused(checkEmailAddress(`user@${'a'.repeat(64)}.com`), 'malformed label');
  });

  test.each([
    ['userexample.com', 'must contain @'],
    ['@example.com', 'local part is empty'],
    ['user@', 'domain is empty'],
    ['user@localhost', 'at least two labels'],
    ['user@example..com', 'malformed label'],
    ['user@example.com.', 'malformed label'],
    ['user@-example.com', 'malformed label'],
    ['user@example-.com', 'malformed label'],
    ['user@exa_mple.com', 'malformed label'],
    ['user@[192.0.2.1]', 'malformed label'],
    ['user@example.123', 'top-level domain cannot be numeric'],
    ['us..er@example.com', 'misplaced dot'],
    ['.user@example.com', 'misplaced dot'],
    ['user.@example.com', 'misplaced dot'],
    ['us er@example.com', 'not allowed'],
    ['"quoted"@example.com', 'not allowed'],
    ['user@host@example.com', 'not allowed'],
    ['usér@example.com', 'not allowed'],
    ['user@exämple.com', 'malformed label'],
  ])('%s is refused (%s)', (address, reason) => {
    expectRefused(checkEmailAddress(address), reason);
  });
});

describe('Brazil: CPF, CNPJ and Pix keys', () => {
  test.each([
    ['529.982.247-25', '52998224725'],
    ['52998224725', '52998224725'],
    ['123.456.789-09', '12345678909'],
    [' 111.444.777-35 ', '11144477735'],
  ])('CPF %p is accepted as %s', (cpf, normalized) => {
    expectAccepted(checkCpf(cpf), normalized);
  });

  test.each(['529.982.247-24', '529.982.247-15', '52998224752'])('CPF %s has wrong check digits', (cpf) => {
    expectRefused(checkCpf(cpf), 'CPF check digits do not match');
  });

  test.each(['000.000.000-00', '11111111111', '999.999.999-99'])('CPF %s repeats one digit', (cpf) => {
    expectRefused(checkCpf(cpf), 'cannot be one digit repeated');
  });

  test.each(['5299822472', '529982247250', '529982.247-25', '529.982.24725', ''])('CPF %p has the wrong length or formatting', (cpf) => {
    expectRefused(checkCpf(cpf), 'CPF must be 11 digits');
  });

  test.each(['529.982.247-2X', '529 982 247 25', '529/982/247-25'])('CPF %p has a character that is not allowed', (cpf) => {
    expectRefused(checkCpf(cpf), 'digits only');
  });

  test.each([
    ['11.222.333/0001-81', '11222333000181', 'common documentation example'],
    ['11222333000181', '11222333000181', 'unformatted'],
    ['00.000.000/0001-91', '00000000000191', 'Banco do Brasil'],
    ['12.ABC.345/01DE-35', '12ABC34501DE35', 'Receita Federal alphanumeric CNPJ example'],
    ['12abc34501de35', '12ABC34501DE35', 'alphanumeric, lower case'],
  ])('CNPJ %s is accepted as %s (%s)', (cnpj, normalized) => {
    expectAccepted(checkCnpj(cnpj), normalized);
  });

  test.each(['11.222.333/0001-82', '11.222.333/0001-18', '12.ABC.345/01DE-53', '12.ABD.345/01DE-35'])('CNPJ %s has wrong check digits', (cnpj) => {
    expectRefused(checkCnpj(cnpj), 'CNPJ check digits do not match');
  });

  test.each(['00.000.000/0000-00', '11111111111111'])('CNPJ %s repeats one character', (cnpj) => {
    expectRefused(checkCnpj(cnpj), 'cannot be one character repeated');
  });

  test.each(['1122233300018', '112223330001811', '11.222.333/000181', '11.222.333/0001-8A', ''])(
    'CNPJ %p has the wrong length, formatting or check-digit characters',
    (cnpj) => {
      expectRefused(checkCnpj(cnpj), 'CNPJ must be 14 characters');
    },
  );

  test.each(['11.222.333/0001-8!', '11 222 333 0001 81', '12.ÀBC.345/01DE-35'])('CNPJ %p has a character that is not allowed', (cnpj) => {
    expectRefused(checkCnpj(cnpj), 'letters and digits only');
  });

  test('Pix CPF and CNPJ keys are checked and normalized like CPF and CNPJ', () => {
    expectAccepted(checkPixKey('529.982.247-25', 'CPF'), '52998224725');
    expectRefused(checkPixKey('529.982.247-24', 'CPF'), 'CPF check digits do not match');
    expectAccepted(checkPixKey('11.222.333/0001-81', 'CNPJ'), '11222333000181');
    expectRefused(checkPixKey('11.222.333/0001-82', 'CNPJ'), 'CNPJ check digits do not match');
  });

  test('Pix e-mail keys are lower-cased and at most 77 characters', () => {
    expectAccepted(checkPixKey('Fulano.Silva@Example.com.br', 'EMAIL'), 'fulano.silva@example.com.br');
    const address77 = `${'a'.repeat(65)}@example.com`;
    expect(address77).toHaveLength(77);
    expectRefused(checkPixKey(address77, 'EMAIL'), 'local part must be at most 64 characters');
    const long = `${'a'.repeat(60)}@${'b'.repeat(13)}.com.br`;
    expect(long).toHaveLength(81);
    expectRefused(checkPixKey(long, 'EMAIL'), 'Pix e-mail key must be at most 77 characters');
    expectRefused(checkPixKey('fulano@localhost', 'EMAIL'), 'at least two labels');
  });

  test.each([
    ['+5511987654321', '+5511987654321', 'São Paulo mobile, 11 digits'],
    ['+551133334444', '+551133334444', 'São Paulo landline, 10 digits'],
    ['+55 61 99999-8888', '+5561999998888', 'spaces and hyphens'],
  ])('Pix phone key %s is accepted (%s)', (phone, normalized) => {
    expectAccepted(checkPixKey(phone, 'PHONE'), normalized);
  });

  test.each([
    ['+14155552671', 'not Brazilian'],
    ['+55119876543210', '12 digits after +55'],
    ['+55119876543', '9 digits after +55'],
    ['+5501987654321', 'area code starting with 0'],
  ])('Pix phone key %s is refused (%s)', (phone) => {
    expectRefused(checkPixKey(phone, 'PHONE'), 'Pix phone key must be +55');
  });

  test('a Pix phone key must be an E.164 number', () => {
    expectRefused(checkPixKey('11987654321', 'PHONE'), 'must start with +');
    expectRefused(checkPixKey('+55119876543a1', 'PHONE'), 'only digits after the +');
  });

  test('Pix random keys are UUIDs, lower-cased', () => {
    expectAccepted(checkPixKey('123e4567-e89b-12d3-a456-426614174000', 'RANDOM'), '123e4567-e89b-12d3-a456-426614174000');
    expectAccepted(checkPixKey(' 123E4567-E89B-12D3-A456-426614174000 ', 'RANDOM'), '123e4567-e89b-12d3-a456-426614174000');
  });

  test.each(['123e4567-e89b-12d3-a456-42661417400', '123e4567e89b12d3a456426614174000', '123e4567-e89b-12d3-a456-42661417400g', 'not-a-uuid'])(
    'Pix random key %s is refused',
    (key) => {
      expectRefused(checkPixKey(key, 'RANDOM'), 'Pix random key must be a UUID');
    },
  );

  test('an unknown Pix key type is refused', () => {
    expectRefused(checkPixKey('52998224725', 'TAX_ID' as PixKeyType), 'Pix key type must be');
  });
});

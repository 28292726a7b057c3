import { duplicateKey, primaryIdentifier } from '../../src/contexts/external-accounts/domain/account-identity';
import { assertExternalAccountUsable } from '../../src/contexts/external-accounts/domain/account-usage';
import { ACCOUNT_TYPES, accountTypeSpec } from '../../src/contexts/external-accounts/domain/account-types';
import { addBankingDays, isBankingDay } from '../../src/contexts/external-accounts/domain/banking-days';
import { counterpartyProblems, register } from '../../src/contexts/external-accounts/domain/registration';
import { sandboxBankValidationPasses, sandboxNameCheck, scenarioSuffix, verifiedNameFor } from '../../src/contexts/external-accounts/domain/sandbox-scenarios';
import type { DomainError } from '../../src/domain/errors';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as DomainError).code;
  }
};

describe('scenario suffix (spec §8)', () => {
  test.each([
    ['12345678104', '104'],
    ['DE89370400440532013000', '000'],
    ['jane.doe104@example.com', '104'],
    ['0xAbCDEF1234567890aBCdEf1234567890ABcDef12', ''],
    ['7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV112', '002'],
    ['TLyqzVGLV1srkB7dToTAEqgDSfPtXRJ118', '008'],
    ['acct119', '119'],
    ['ab', ''],
  ])('%s → %s', (identifier, suffix) => {
    expect(scenarioSuffix(identifier)).toBe(suffix);
  });

  test.each([
    ['102', 'NOT_MATCHED'],
    ['103', 'PARTIAL_MATCH'],
    ['104', 'PENDING'],
    ['105', 'INVALID_ACCOUNT'],
    ['106', 'UNSUPPORTED'],
    ['107', 'CHECKED_BY_RECEIVING_FI'],
    ['108', 'MATCHED'],
    ['002', 'MATCHED'],
  ])('name check for suffix %s is %s', (suffix, status) => {
    expect(sandboxNameCheck(`9876543${suffix}`)).toBe(status);
  });

  test('the verified name is the one the rail holds', () => {
    expect(verifiedNameFor('MATCHED', ' Jane  Q Doe ')).toBe('JANE Q DOE');
    expect(verifiedNameFor('PARTIAL_MATCH', 'Jane Q Doe')).toBe('J. Q. DOE');
    expect(verifiedNameFor('NOT_MATCHED', 'Jane Doe')).toBeUndefined();
    expect(verifiedNameFor('PENDING', 'Jane Doe')).toBeUndefined();
  });

  test('US validation fails only for account numbers ending 110', () => {
    expect(sandboxBankValidationPasses('123456110')).toBe(false);
    expect(sandboxBankValidationPasses('123456111')).toBe(true);
  });
});

describe('banking days', () => {
  const at = (iso: string) => new Date(iso);
  test('weekends are skipped', () => {
    expect(isBankingDay(at('2026-11-20T10:00:00Z'))).toBe(true); // Friday
    expect(isBankingDay(at('2026-11-21T10:00:00Z'))).toBe(false);
    expect(addBankingDays(at('2026-11-18T10:00:00Z'), 3).toISOString()).toBe('2026-11-23T10:00:00.000Z'); // Wed → Mon
    expect(addBankingDays(at('2026-11-20T15:30:00Z'), 3).toISOString()).toBe('2026-11-25T15:30:00.000Z'); // Fri → Wed
    expect(addBankingDays(at('2026-11-16T09:00:00Z'), 3).toISOString()).toBe('2026-11-19T09:00:00.000Z'); // Mon → Thu
  });
  test('a weekend start counts from Monday', () => {
    expect(addBankingDays(at('2026-11-21T22:00:00Z'), 3).toISOString()).toBe('2026-11-26T00:00:00.000Z'); // Sat → Thu 00:00
  });
});

describe('what makes two registrations the same account', () => {
  const gbp = (accountNumber: string, name = 'A') => ({
    accountType: 'GBP_ACCOUNT',
    sortCode: '040004',
    accountNumber,
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: name },
  });
  test('coordinates count, names do not', () => {
    expect(duplicateKey('GBP', gbp('12345678', 'A'))).toBe(duplicateKey('GBP', gbp('12345678', 'B')));
    expect(duplicateKey('GBP', gbp('12345678'))).not.toBe(duplicateKey('GBP', gbp('12345679')));
  });
  test('EVM addresses compare case-insensitively, per chain', () => {
    const eth = (address: string, accountType = 'ETHEREUM_WALLET') => ({ accountType, address });
    expect(duplicateKey('USDC', eth('0xabc'))).toBe(duplicateKey('USDC', eth('0xABC')));
    expect(duplicateKey('USDC', eth('0xabc'))).not.toBe(duplicateKey('USDC', eth('0xabc', 'BASE_WALLET')));
  });
  test('an IBAN is one account whatever else is sent; a currency makes another', () => {
    expect(duplicateKey('EUR', { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'COBADEFFXXX' })).toBe(
      duplicateKey('EUR', { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000' }),
    );
    expect(duplicateKey('USD', { accountType: 'SWIFT_ACCOUNT', swiftCode: 'BOTKJPJT', accountNumber: '1' })).not.toBe(
      duplicateKey('JPY', { accountType: 'SWIFT_ACCOUNT', swiftCode: 'BOTKJPJT', accountNumber: '1' }),
    );
  });
  test('the primary identifier prefers the rail address', () => {
    expect(primaryIdentifier({ accountType: 'EGP_ACCOUNT', iban: 'EG1', phoneNumber: '+20' })).toBe('EG1');
    expect(primaryIdentifier({ accountType: 'LIGHTNING', lightningAddress: 'a@b.c' })).toBe('a@b.c');
  });
});

describe('registration', () => {
  const now = new Date('2026-11-20T15:00:00Z'); // a Friday
  const us = { region: 'US', counterpartyInformationRequired: false };
  const travelRule = { region: 'EU', counterpartyInformationRequired: true };
  const wallet = { accountType: 'ETHEREUM_WALLET', address: '0xabc' };

  test('a US account waits 3 banking days in production, seconds in the sandbox', () => {
    const info = {
      accountType: 'USD_ACCOUNT',
      accountNumber: '123',
      routingNumber: '021000021',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'A' },
    };
    const production = register({ info, environment: 'PRODUCTION', platform: us, now });
    expect(production).toMatchObject({ status: 'PENDING', bankValidation: 'PENDING', beneficiaryVerificationStatus: 'CHECKED_BY_RECEIVING_FI' });
    expect(production.bankValidationDueAt!.toISOString()).toBe('2026-11-25T15:00:00.000Z');
    expect(production.pendingWork).toEqual({ bankValidationAfterSeconds: 5 * 86_400 });
    expect(register({ info, environment: 'SANDBOX', platform: us, now }).pendingWork).toEqual({ bankValidationAfterSeconds: 10 });
  });

  test('a first-party self-custody wallet on a counterparty-rule platform must prove ownership', () => {
    expect(register({ info: wallet, ownershipType: 'FIRST_PARTY', environment: 'SANDBOX', platform: travelRule, now }).status).toBe(
      'PENDING_OWNERSHIP_VERIFICATION',
    );
    expect(register({ info: { ...wallet, vaspName: 'Kraken' }, ownershipType: 'FIRST_PARTY', environment: 'SANDBOX', platform: travelRule, now }).status).toBe(
      'ACTIVE',
    );
    expect(register({ info: wallet, ownershipType: 'FIRST_PARTY', environment: 'SANDBOX', platform: us, now }).status).toBe('ACTIVE');
    expect(register({ info: wallet, ownershipType: 'THIRD_PARTY', environment: 'SANDBOX', platform: travelRule, now }).status).toBe('ACTIVE');
    expect(register({ info: wallet, environment: 'SANDBOX', platform: travelRule, now }).beneficiaryVerificationStatus).toBeNull();
  });

  test('counterparty rules: ownershipType required, a third-party wallet names its beneficiary', () => {
    expect(counterpartyProblems(wallet, undefined, travelRule).map((p) => p.field)).toEqual(['ownershipType']);
    expect(counterpartyProblems(wallet, 'THIRD_PARTY', travelRule).map((p) => p.field)).toEqual(['accountInfo.beneficiary']);
    expect(counterpartyProblems(wallet, undefined, us)).toEqual([]);
    expect(counterpartyProblems({ ...wallet, vaspName: 'Kraken' }, undefined, travelRule)).toEqual([]);
  });
});

describe('using an account (for quotes)', () => {
  test('each refusal has its code', () => {
    expect(codeOf(() => assertExternalAccountUsable({ status: 'PENDING', bankValidation: 'PENDING' }, { platformRegion: 'US' }))).toBe(
      'BANK_ACCOUNT_VALIDATION_PENDING',
    );
    expect(codeOf(() => assertExternalAccountUsable({ status: 'INACTIVE', bankValidation: 'FAILED' }, { platformRegion: 'US' }))).toBe('INVALID_BANK_ACCOUNT');
    expect(codeOf(() => assertExternalAccountUsable({ status: 'ACTIVE', deletedAt: new Date() }, { platformRegion: 'US' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => assertExternalAccountUsable({ status: 'ACTIVE' }, { platformRegion: 'US' }))).toBeUndefined();
  });
  test('an unproven wallet: only EU platforms, only below EUR 1,000', () => {
    const pending = { status: 'PENDING_OWNERSHIP_VERIFICATION' as const };
    expect(codeOf(() => assertExternalAccountUsable(pending, { platformRegion: 'EU', amountEurCents: 99_999n }))).toBeUndefined();
    expect(codeOf(() => assertExternalAccountUsable(pending, { platformRegion: 'EU', amountEurCents: 100_000n }))).toBe(
      'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
    );
    expect(codeOf(() => assertExternalAccountUsable(pending, { platformRegion: 'US', amountEurCents: 1n }))).toBe('EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED');
    expect(codeOf(() => assertExternalAccountUsable({ status: 'UNVERIFIED' }, { platformRegion: 'EU' }))).toBe('EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED');
  });
});

describe('the account-type table', () => {
  test('every type of the spec is there, LIGHTNING_ACCOUNT as an alias', () => {
    const fiat =
      'AED BDT BRL BWP CAD CNY COP DKK EGP EUR GBP GHS GTQ HKD HTG IDR INR JMD KES MWK MXN MYR NGN PHP PKR RWF SGD SLV THB TZS UGX USD VND XAF XOF ZAR ZMW ILS TRY'
        .split(' ')
        .map((c) => `${c}_ACCOUNT`);
    const others = [
      'SWIFT_ACCOUNT',
      'BASE_WALLET',
      'ETHEREUM_WALLET',
      'LIGHTNING',
      'POLYGON_WALLET',
      'PLASMA_WALLET',
      'ARBITRUM_WALLET',
      'SOLANA_WALLET',
      'SPARK_WALLET',
      'TRON_WALLET',
    ];
    expect(ACCOUNT_TYPES.map((t) => t.accountType).sort()).toEqual([...fiat, ...others].sort());
    expect(accountTypeSpec('LIGHTNING_ACCOUNT')?.accountType).toBe('LIGHTNING');
  });
});

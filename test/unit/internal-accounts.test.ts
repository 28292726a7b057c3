import {
  accountTypeFor,
  auditInternalAccounts,
  customersGetEmbeddedWallet,
  missingAccounts,
  platformAccountPlan,
  type InternalAccountRow,
  type LedgerAccountRow,
} from '../../src/contexts/ledger/domain/internal-accounts';
import type { AgreementConsent } from '../../src/contexts/customers/domain/onboarding';
import { customerAccountPlan } from '../../src/contexts/customers/services/customer-account-plan';

const terms: AgreementConsent = {
  agreementType: 'SVC_END_USER_TERMS',
  termsVersion: '1',
  acceptedAt: '2026-01-01T00:00:00Z',
  ipAddress: '127.0.0.1',
  acceptanceMethod: 'CHECKBOX',
};

function platform(over: Partial<{ isRegulatedFinancialInstitution: boolean; embeddedWalletsSupported: boolean; currencies: string[] }> = {}) {
  return {
    isRegulatedFinancialInstitution: over.isRegulatedFinancialInstitution ?? true,
    embeddedWalletsSupported: over.embeddedWalletsSupported ?? false,
    supportedCurrencies: (over.currencies ?? ['USD', 'EUR']).map((currencyCode) => ({ currencyCode })),
  };
}

const approved = { kycStatus: 'APPROVED' as const, agreementConsents: [], currencies: ['USD', 'EUR'] };

describe('accountTypeFor', () => {
  test('fiat and crypto balances', () => {
    expect(accountTypeFor('USD')).toBe('INTERNAL_FIAT');
    expect(accountTypeFor('VND')).toBe('INTERNAL_FIAT');
    expect(accountTypeFor('BTC')).toBe('INTERNAL_CRYPTO');
    expect(accountTypeFor('USDB')).toBe('INTERNAL_CRYPTO');
  });
});

describe('customerAccountPlan', () => {
  test('regulated platform: an approved customer gets one account per enabled currency', () => {
    expect(customerAccountPlan(platform(), approved)).toEqual([
      { type: 'INTERNAL_FIAT', currency: 'USD' },
      { type: 'INTERNAL_FIAT', currency: 'EUR' },
    ]);
  });

  test.each(['UNVERIFIED', 'PENDING', 'REJECTED', 'HOLD'] as const)('nothing while KYC is %s', (kycStatus) => {
    expect(customerAccountPlan(platform({ embeddedWalletsSupported: true }), { ...approved, kycStatus, agreementConsents: [terms] })).toEqual([]);
  });

  test('unregulated platform: nothing until the end-user terms are accepted, even when approved', () => {
    const p = platform({ isRegulatedFinancialInstitution: false });
    expect(customerAccountPlan(p, approved)).toEqual([]);
    expect(customerAccountPlan(p, { ...approved, kycStatus: 'UNVERIFIED', agreementConsents: [terms] })).toEqual([]);
    expect(customerAccountPlan(p, { ...approved, agreementConsents: [terms] })).toHaveLength(2);
  });

  test('platforms with embedded wallets add a USDB EMBEDDED_WALLET', () => {
    expect(customerAccountPlan(platform({ embeddedWalletsSupported: true }), approved)).toEqual([
      { type: 'INTERNAL_FIAT', currency: 'USD' },
      { type: 'INTERNAL_FIAT', currency: 'EUR' },
      { type: 'EMBEDDED_WALLET', currency: 'USDB' },
    ]);
  });

  test('platforms supporting USDB give every customer the USDB wallet (the global account)', () => {
    const p = platform({ currencies: ['USD', 'USDB'] });
    expect(customersGetEmbeddedWallet(p)).toBe(true);
    expect(customerAccountPlan(p, { ...approved, currencies: ['USD'] })).toEqual([
      { type: 'INTERNAL_FIAT', currency: 'USD' },
      { type: 'EMBEDDED_WALLET', currency: 'USDB' },
    ]);
    // A customer who enabled USDB also holds it as a platform-managed crypto balance.
    expect(customerAccountPlan(p, { ...approved, currencies: ['USD', 'USDB'] })).toEqual([
      { type: 'INTERNAL_FIAT', currency: 'USD' },
      { type: 'INTERNAL_CRYPTO', currency: 'USDB' },
      { type: 'EMBEDDED_WALLET', currency: 'USDB' },
    ]);
  });

  test('no wallet without wallet support or USDB', () => {
    expect(customersGetEmbeddedWallet(platform({ currencies: ['USD', 'USDC', 'BTC'] }))).toBe(false);
  });

  test('a repeated currency gives one account', () => {
    expect(customerAccountPlan(platform(), { ...approved, currencies: ['USD', 'USD'] })).toEqual([{ type: 'INTERNAL_FIAT', currency: 'USD' }]);
  });
});

describe('platformAccountPlan', () => {
  test('one per supported currency, never an embedded wallet', () => {
    expect(platformAccountPlan(platform({ embeddedWalletsSupported: true, currencies: ['USD', 'USDB', 'BTC'] }))).toEqual([
      { type: 'INTERNAL_FIAT', currency: 'USD' },
      { type: 'INTERNAL_CRYPTO', currency: 'USDB' },
      { type: 'INTERNAL_CRYPTO', currency: 'BTC' },
    ]);
  });
});

describe('missingAccounts', () => {
  test('only what is not held, by type and currency', () => {
    const plan = [
      { type: 'INTERNAL_FIAT' as const, currency: 'USD' },
      { type: 'INTERNAL_CRYPTO' as const, currency: 'USDB' },
      { type: 'EMBEDDED_WALLET' as const, currency: 'USDB' },
    ];
    expect(missingAccounts(plan, [{ type: 'INTERNAL_CRYPTO', currency: 'USDB' }])).toEqual([plan[0], plan[2]]);
    expect(missingAccounts(plan, plan)).toEqual([]);
    expect(missingAccounts(plan, [])).toEqual(plan);
  });
});

describe('auditInternalAccounts', () => {
  const ledger = (id: string, over: Partial<LedgerAccountRow> = {}): LedgerAccountRow => ({
    id,
    platformId: 'P1',
    kind: 'INTERNAL_ACCOUNT',
    currency: 'USD',
    ...over,
  });
  const account = (id: string, over: Partial<InternalAccountRow> = {}): InternalAccountRow => ({
    id,
    platformId: 'P1',
    customerId: 'C1',
    type: 'INTERNAL_FIAT',
    currency: 'USD',
    ...over,
  });

  test('a healthy set has no findings', () => {
    expect(
      auditInternalAccounts(
        [account('A'), account('B', { customerId: null }), account('W', { type: 'EMBEDDED_WALLET', currency: 'USDB' })],
        [ledger('A'), ledger('B'), ledger('W', { currency: 'USDB' }), ledger('Ledger:P1:SANDBOX_FUNDING:USD', { kind: 'SANDBOX_FUNDING_SOURCE' })],
      ),
    ).toEqual([]);
  });

  test('every kind of break is reported', () => {
    const findings = auditInternalAccounts(
      [
        account('NO_LEDGER'),
        account('WRONG_CCY', { customerId: 'C1b' }),
        account('WRONG_KIND', { customerId: 'C2' }),
        account('OTHER_PLATFORM', { customerId: 'C3' }),
        account('DUP', { customerId: 'C4' }),
        account('DUP2', { customerId: 'C4' }),
        account('WALLET_EUR', { type: 'EMBEDDED_WALLET', currency: 'EUR', customerId: 'C5' }),
        account('WALLET_PLATFORM', { type: 'EMBEDDED_WALLET', currency: 'USDB', customerId: null }),
      ],
      [
        ledger('WRONG_CCY', { currency: 'EUR' }),
        ledger('WRONG_KIND', { kind: 'SANDBOX_FUNDING_SOURCE' }),
        ledger('OTHER_PLATFORM', { platformId: 'P2' }),
        ledger('DUP'),
        ledger('DUP2'),
        ledger('WALLET_EUR', { currency: 'EUR' }),
        ledger('WALLET_PLATFORM', { currency: 'USDB' }),
      ],
    );
    expect(findings.map((f) => `${f.kind} ${f.subject}`)).toEqual([
      'ACCOUNT_WITHOUT_LEDGER NO_LEDGER',
      'LEDGER_MISMATCH WRONG_CCY',
      'LEDGER_MISMATCH WRONG_KIND',
      'LEDGER_MISMATCH OTHER_PLATFORM',
      'DUPLICATE_ACCOUNT DUP2',
      'INVALID_EMBEDDED_WALLET WALLET_EUR',
      'INVALID_EMBEDDED_WALLET WALLET_PLATFORM',
    ]);
  });
});

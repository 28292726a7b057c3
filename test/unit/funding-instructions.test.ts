import type { InternalAccount, LedgerAccount } from '../../src/contexts/ledger/entities';
import { fundingInstructions, internalAccountView, sparkAddress } from '../../src/contexts/ledger/services/internal-account-views';
import { depositNetworkProblems, DEPOSIT_NETWORK_NAMES } from '../../src/domain/deposit-networks';
import { checkBitcoinAddress } from '../../src/contexts/payments/domain/pricing/withdrawal-fees';
import { checkEvmAddress } from '../../src/domain/identifiers/evm-address';
import { checkSolanaAddress } from '../../src/domain/identifiers/solana-address';
import { checkTronAddress } from '../../src/domain/identifiers/tron-address';
import { checkSparkAddress } from '../../src/domain/identifiers/spark-address';

function account(over: Partial<InternalAccount> = {}): InternalAccount {
  const now = new Date('2026-11-21T12:00:00Z');
  return {
    id: 'InternalAccount:00000000-0000-4000-8000-000000000001',
    platformId: 'Platform:p',
    customerId: 'Customer:c',
    currency: 'USD',
    type: 'INTERNAL_FIAT',
    status: 'ACTIVE',
    fundingReference: 'SVC0123456789AB',
    privateEnabled: null,
    createdAt: now,
    updatedAt: now,
    ...over,
  } as InternalAccount;
}

function info(a: InternalAccount) {
  const [only, ...rest] = fundingInstructions(a);
  expect(rest).toEqual([]);
  return only!.accountOrWalletInfo as Record<string, unknown>;
}

/** ISO 7064 mod 97-10 */
function ibanValid(iban: string): boolean {
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return BigInt(moved) % 97n === 1n;
}

describe('funding instructions', () => {
  test('USD: bank coordinates with rails and the reference', () => {
    expect(info(account())).toEqual({
      accountType: 'USD_ACCOUNT',
      accountNumber: expect.stringMatching(/^\d{12}$/),
      routingNumber: '110000000',
      bankName: 'Sandbox Bank, N.A.',
      bankAccountType: 'CHECKING',
      paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
      reference: 'SVC0123456789AB',
    });
    expect(fundingInstructions(account())[0]!.instructionsNotes).toContain('SVC0123456789AB');
  });

  test('EUR: a valid IBAN', () => {
    const eur = info(account({ currency: 'EUR' }));
    expect(eur).toMatchObject({ accountType: 'EUR_ACCOUNT', paymentRails: ['SEPA', 'SEPA_INSTANT'], reference: 'SVC0123456789AB' });
    expect(eur.iban).toMatch(/^DE\d{20}$/);
    expect(ibanValid(String(eur.iban))).toBe(true);
  });

  test('MXN: an 18-digit CLABE with its check digit', () => {
    const clabe = String(info(account({ currency: 'MXN' })).clabeNumber);
    expect(clabe).toMatch(/^\d{18}$/);
    const w = [3, 7, 1];
    const sum = [...clabe.slice(0, 17)].reduce((s, d, i) => s + ((Number(d) * w[i % 3]!) % 10), 0);
    expect(Number(clabe[17])).toBe((10 - (sum % 10)) % 10);
  });

  test('GBP and the SWIFT fallback carry the reference', () => {
    expect(info(account({ currency: 'GBP' }))).toMatchObject({
      accountType: 'GBP_ACCOUNT',
      sortCode: '040075',
      accountNumber: expect.stringMatching(/^\d{8}$/),
      reference: 'SVC0123456789AB',
    });
    expect(info(account({ currency: 'PHP' }))).toMatchObject({
      accountType: 'SWIFT_ACCOUNT',
      paymentRails: ['SWIFT'],
      accountHolderName: expect.any(String),
      reference: 'SVC0123456789AB',
    });
  });

  test('crypto balances and embedded wallets are funded at addresses', () => {
    expect(info(account({ currency: 'USDB', type: 'INTERNAL_CRYPTO' }))).toEqual({
      accountType: 'SPARK_WALLET',
      address: sparkAddress('SVC0123456789AB'),
      assetType: 'USDB',
    });
    expect(info(account({ currency: 'USDB', type: 'EMBEDDED_WALLET', privateEnabled: false }))).toEqual({
      accountType: 'SPARK_WALLET',
      address: sparkAddress('SVC0123456789AB'),
      assetType: 'USDB',
    });
    expect(info(account({ currency: 'USDC', type: 'INTERNAL_CRYPTO' }))).toMatchObject({
      accountType: 'BASE_WALLET',
      address: expect.stringMatching(/^0x[0-9a-f]{40}$/),
    });
    expect(sparkAddress('SVC0123456789AB')).toMatch(/^spark1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/);
    expect(checkSparkAddress(sparkAddress('SVC0123456789AB')).valid).toBe(true);
  });

  test('different references give different coordinates', () => {
    const refs = Array.from({ length: 50 }, (_, i) => `SVC${i.toString(16).toUpperCase().padStart(12, '0')}`);
    for (const [currency, field, type] of [
      ['USD', 'accountNumber', 'INTERNAL_FIAT'],
      ['EUR', 'iban', 'INTERNAL_FIAT'],
      ['USDB', 'address', 'EMBEDDED_WALLET'],
    ] as const) {
      const values = refs.map((r) => info(account({ currency, type, fundingReference: r }))[field]);
      expect(new Set(values).size).toBe(refs.length);
    }
  });

  test('isPlatformAccount tells platform and customer accounts apart', () => {
    expect(fundingInstructions(account())[0]!.isPlatformAccount).toBe(false);
    expect(fundingInstructions(account({ customerId: null }))[0]!.isPlatformAccount).toBe(true);
  });
});

describe('deposit instructions on a named network (real-time-funded quotes)', () => {
  const on = (currency: string, cryptoNetwork: string) => info({ ...account({ currency, type: 'INTERNAL_CRYPTO' }), cryptoNetwork } as InternalAccount);

  test("each network answers an address in its own chain's format", () => {
    const solana = on('USDC', 'SOLANA');
    expect(solana).toEqual({ accountType: 'SOLANA_WALLET', address: expect.any(String), assetType: 'USDC' });
    expect(checkSolanaAddress(String(solana.address)).valid).toBe(true);
    for (const [currency, network, type] of [
      ['USDC', 'BASE', 'BASE_WALLET'],
      ['USDC', 'POLYGON', 'POLYGON_WALLET'],
      ['USDT', 'ETHEREUM', 'ETHEREUM_WALLET'],
      ['USDT', 'PLASMA', 'PLASMA_WALLET'],
    ] as const) {
      const evm = on(currency, network);
      expect(evm).toEqual({ accountType: type, address: expect.stringMatching(/^0x[0-9a-f]{40}$/), assetType: currency });
      expect(checkEvmAddress(String(evm.address)).valid).toBe(true);
    }
    const tron = on('USDT', 'TRON');
    expect(tron).toMatchObject({ accountType: 'TRON_WALLET', assetType: 'USDT' });
    expect(checkTronAddress(String(tron.address)).valid).toBe(true);
    expect(on('USDB', 'SPARK')).toEqual({ accountType: 'SPARK_WALLET', address: sparkAddress('SVC0123456789AB'), assetType: 'USDB' });
    expect(checkSparkAddress(String(on('USDB', 'SPARK').address)).valid).toBe(true);
    const bitcoin = on('BTC', 'BITCOIN');
    expect(bitcoin).toMatchObject({ accountType: 'BITCOIN_L1', network: 'BITCOIN' });
    expect(checkBitcoinAddress(String(bitcoin.address)).valid).toBe(true);
  });

  test('without a network, crypto accounts keep the address they always had', () => {
    expect(info(account({ currency: 'USDC', type: 'INTERNAL_CRYPTO' }))).toEqual(on('USDC', 'BASE'));
    expect(info(account({ currency: 'USDT', type: 'INTERNAL_CRYPTO' }))).toEqual(on('USDT', 'ETHEREUM'));
  });

  test('the network is judged with the currency', () => {
    const rule = (currency: string, network?: string) => depositNetworkProblems(currency, network, 'source.cryptoNetwork').map((e) => e.constraint);
    expect(rule('USDC', 'SOLANA')).toEqual([]);
    expect(rule('USD')).toEqual([]);
    expect(rule('BTC')).toEqual([]);
    expect(rule('USDC')).toEqual(['required']);
    expect(rule('USDB')).toEqual(['required']);
    expect(rule('USDC', 'DOGECOIN')).toEqual(['enum']);
    expect(rule('USDC', 'TRON')).toEqual(['supportedForCurrency']);
    expect(rule('USDT', 'BASE')).toEqual(['supportedForCurrency']);
    expect(rule('BTC', 'LIGHTNING')).toEqual(['supportedForCurrency']);
    expect(rule('EUR', 'SOLANA')).toEqual(['cryptoOnly']);
    expect(DEPOSIT_NETWORK_NAMES).toEqual(['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'TRON', 'PLASMA', 'SPARK', 'LIGHTNING', 'BITCOIN']);
  });
});

describe('internalAccountView', () => {
  const ledger = (over: Partial<LedgerAccount> = {}) =>
    ({ id: 'x', balance: 700n, held: 300n, updatedAt: new Date('2026-11-21T12:05:00Z'), ...over }) as LedgerAccount;

  test('available and total balance, currency with decimals, last change time', () => {
    const view = internalAccountView(account(), ledger());
    expect(view).toMatchObject({
      customerId: 'Customer:c',
      balance: { amount: 700n, currency: { code: 'USD', decimals: 2 } },
      totalBalance: { amount: 1000n, currency: { code: 'USD', decimals: 2 } },
      updatedAt: '2026-11-21T12:05:00.000Z',
    });
    expect(view).not.toHaveProperty('privateEnabled');
  });

  test('privateEnabled appears on embedded wallets only; platform accounts have no customerId', () => {
    expect(internalAccountView(account({ type: 'EMBEDDED_WALLET', currency: 'USDB', privateEnabled: false }), ledger())).toMatchObject({
      privateEnabled: false,
      balance: { currency: { decimals: 6 } },
    });
    expect(internalAccountView(account({ customerId: null }), ledger())).not.toHaveProperty('customerId');
  });
});

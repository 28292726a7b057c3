/**
 * Every kind of external account the service can pay to, as data: the fields each rail needs
 * (the public reference's account-info variants), the rails it is reachable by and which
 * currencies an account of that kind may hold. The API schema, the duplicate rule and the
 * sandbox scenarios are all derived from this one table.
 */

export const PHONE_PATTERN = '^\\+[0-9]{6,14}$';
export const BIC_PATTERN = '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$';
export const GENERIC_IBAN_PATTERN = '^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$';
export const BANK_ACCOUNT_TYPES = ['CHECKING', 'SAVINGS'] as const;
export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const;

export interface FieldRule {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  values?: readonly string[];
}

/** Which identifier check a field gets beyond its pattern (see domain/identifiers). */
export type IdentifierKind =
  'abaRoutingNumber' | 'iban' | 'clabe' | 'sortCode' | 'ifsc' | 'bic' | 'phone' | 'upiVpa' | 'wallet' | 'lightningInvoice' | 'bolt12Offer' | 'lightningAddress';

export interface FieldSpec extends FieldRule {
  check?: IdentifierKind;
}

export interface IndividualBeneficiaryRule {
  /** Fields an individual beneficiary needs besides fullName. */
  alsoRequires: ('address' | 'countryOfResidence' | 'phoneNumber')[];
  /** Currency-specific extra fields. */
  extra?: 'registrationNumber' | 'colombianDocument';
}

export interface FiatAccountType {
  kind: 'FIAT';
  accountType: string;
  /** The schema name of the reference, e.g. `Usd` for UsdExternalAccountInfo. */
  schemaPrefix: string;
  /** Currencies an account of this kind may hold (ISO 4217). */
  currencies: readonly string[];
  fields: Record<string, FieldSpec>;
  paymentRails: readonly string[];
  beneficiary: IndividualBeneficiaryRule;
  /** When the rail routes by institution name, `bankName` must come from GET /discoveries. */
  bankNameFromDirectory?: boolean;
  /** Fields of which at least one set must be complete (bank rail or mobile-money rail). */
  anyOf?: readonly (readonly string[])[];
}

export interface WalletAccountType {
  kind: 'WALLET';
  accountType: string;
  schemaPrefix: string;
  currencies: readonly string[];
  /** EVM chains share one address format; an address alone does not tell the chain. */
  addressFormat: 'EVM' | 'SOLANA' | 'TRON' | 'SPARK';
}

export interface LightningAccountType {
  kind: 'LIGHTNING';
  accountType: 'LIGHTNING';
  schemaPrefix: 'Lightning';
  currencies: readonly string[];
}

export type AccountTypeSpec = FiatAccountType | WalletAccountType | LightningAccountType;

const iban = (length: number, country: string): FieldSpec => ({
  required: true,
  minLength: length,
  maxLength: length,
  pattern: `^${country}[0-9A-Z]{${length - 2}}$`,
  check: 'iban',
});
const swiftCode = (required = false): FieldSpec => ({ required, minLength: 8, maxLength: 11, pattern: BIC_PATTERN, check: 'bic' });
const phone = (required: boolean, pattern = PHONE_PATTERN): FieldSpec => ({ required, minLength: 7, maxLength: 15, pattern, check: 'phone' });
const text = (required: boolean, maxLength = 255): FieldSpec => ({ required, minLength: 1, maxLength });
const digits = (min: number, max: number, required = true): FieldSpec => ({
  required,
  minLength: min,
  maxLength: max,
  pattern: `^[0-9]{${min === max ? min : `${min},${max}`}}$`,
});
const bankAccountType = (required: boolean): FieldSpec => ({ required, values: BANK_ACCOUNT_TYPES });
const plain: IndividualBeneficiaryRule = { alsoRequires: [] };

function fiat(
  ccy: string,
  prefix: string,
  fields: Record<string, FieldSpec>,
  paymentRails: string[],
  options: Partial<Pick<FiatAccountType, 'beneficiary' | 'bankNameFromDirectory' | 'anyOf' | 'currencies'>> = {},
): FiatAccountType {
  return {
    kind: 'FIAT',
    accountType: `${ccy}_ACCOUNT`,
    schemaPrefix: prefix,
    currencies: options.currencies ?? [ccy],
    fields,
    paymentRails,
    beneficiary: options.beneficiary ?? plain,
    ...options,
  };
}

const mobileMoney = (ccy: string, prefix: string, phonePattern?: string, region?: readonly string[]) =>
  fiat(
    ccy,
    prefix,
    {
      phoneNumber: phone(true, phonePattern),
      provider: text(true),
      ...(region ? { region: { required: true, minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$', values: region } } : {}),
    },
    ['MOBILE_MONEY'],
  );

const directoryBank = (ccy: string, prefix: string, extra: Record<string, FieldSpec>, rails = ['BANK_TRANSFER']) =>
  fiat(ccy, prefix, { bankName: text(true), accountNumber: text(true, 34), swiftCode: swiftCode(true), ...extra }, rails, { bankNameFromDirectory: true });

export const FIAT_ACCOUNT_TYPES: readonly FiatAccountType[] = [
  fiat('AED', 'Aed', { iban: iban(23, 'AE'), swiftCode: swiftCode() }, ['BANK_TRANSFER'], { beneficiary: { alsoRequires: ['address'] } }),
  fiat(
    'BDT',
    'Bdt',
    { accountNumber: text(false, 34), bankName: text(true), branchCode: digits(5, 5, false), swiftCode: swiftCode(), phoneNumber: phone(false) },
    ['BANK_TRANSFER', 'MOBILE_MONEY'],
    {
      bankNameFromDirectory: true,
      anyOf: [['accountNumber'], ['phoneNumber']],
    },
  ),
  fiat('BRL', 'Brl', { pixKey: text(true, 77), pixKeyType: { required: true, values: PIX_KEY_TYPES }, taxId: digits(11, 14) }, ['PIX']),
  mobileMoney('BWP', 'Bwp'),
  fiat('CAD', 'Cad', { bankCode: digits(3, 3), branchCode: digits(5, 5), accountNumber: digits(7, 12) }, ['BANK_TRANSFER'], {
    beneficiary: { alsoRequires: [], extra: 'registrationNumber' },
  }),
  fiat('CNY', 'Cny', { accountNumber: text(false, 34), bankName: text(true), phoneNumber: phone(false) }, ['BANK_TRANSFER', 'MOBILE_MONEY'], {
    bankNameFromDirectory: true,
    anyOf: [['accountNumber'], ['phoneNumber']],
  }),
  fiat(
    'COP',
    'Cop',
    { accountNumber: text(false, 34), bankAccountType: bankAccountType(false), bankName: text(true), phoneNumber: phone(false) },
    ['BANK_TRANSFER', 'MOBILE_MONEY'],
    {
      bankNameFromDirectory: true,
      beneficiary: { alsoRequires: [], extra: 'colombianDocument' },
      anyOf: [['accountNumber', 'bankAccountType'], ['phoneNumber']],
    },
  ),
  fiat('DKK', 'Dkk', { iban: iban(18, 'DK'), swiftCode: swiftCode() }, ['SEPA', 'SEPA_INSTANT']),
  fiat('EGP', 'Egp', { iban: { ...iban(29, 'EG'), required: false }, bankName: text(true), phoneNumber: phone(false) }, ['BANK_TRANSFER', 'MOBILE_MONEY'], {
    bankNameFromDirectory: true,
    anyOf: [['iban'], ['phoneNumber']],
  }),
  fiat(
    'EUR',
    'Eur',
    { iban: { required: true, minLength: 15, maxLength: 34, pattern: GENERIC_IBAN_PATTERN, check: 'iban' }, swiftCode: swiftCode() },
    ['SEPA', 'SEPA_INSTANT'],
    { beneficiary: { alsoRequires: ['countryOfResidence'] } },
  ),
  fiat('GBP', 'Gbp', { sortCode: { ...digits(6, 6), check: 'sortCode' }, accountNumber: digits(8, 8) }, ['FASTER_PAYMENTS']),
  fiat('GHS', 'Ghs', { accountNumber: text(false, 34), bankName: text(true), phoneNumber: phone(false) }, ['BANK_TRANSFER', 'MOBILE_MONEY'], {
    bankNameFromDirectory: true,
    anyOf: [['accountNumber'], ['phoneNumber']],
  }),
  fiat('GTQ', 'Gtq', { accountNumber: text(true, 34), bankAccountType: bankAccountType(true), bankName: text(true) }, ['BANK_TRANSFER'], {
    bankNameFromDirectory: true,
    beneficiary: { alsoRequires: ['countryOfResidence', 'phoneNumber'] },
  }),
  directoryBank('HKD', 'Hkd', {}),
  fiat('HTG', 'Htg', { phoneNumber: phone(true) }, ['MOBILE_MONEY']),
  directoryBank('IDR', 'Idr', { phoneNumber: phone(true, '^\\+62[0-9]{9,12}$') }),
  fiat('ILS', 'Ils', { iban: iban(23, 'IL'), swiftCode: swiftCode() }, ['BANK_TRANSFER']),
  fiat(
    'INR',
    'Inr',
    {
      vpa: { required: false, minLength: 3, maxLength: 255, pattern: '^[a-zA-Z0-9.\\-_]+@[a-zA-Z0-9]+$', check: 'upiVpa' },
      accountNumber: digits(9, 18, false),
      ifsc: { required: false, minLength: 11, maxLength: 11, pattern: '^[A-Z]{4}0[A-Z0-9]{6}$', check: 'ifsc' },
      rail: { required: false, minLength: 1, maxLength: 32, values: ['NEFT', 'RTGS', 'UPI'] },
      bankName: text(false),
    },
    ['UPI', 'NEFT', 'RTGS'],
    {
      anyOf: [['vpa'], ['accountNumber', 'ifsc', 'rail']],
    },
  ),
  fiat(
    'JMD',
    'Jmd',
    { accountNumber: text(true, 34), branchCode: digits(5, 5), bankAccountType: bankAccountType(true), bankName: text(true) },
    ['BANK_TRANSFER'],
    {
      bankNameFromDirectory: true,
      beneficiary: { alsoRequires: ['address', 'phoneNumber'] },
    },
  ),
  mobileMoney('KES', 'Kes', '^\\+254[0-9]{9}$'),
  mobileMoney('MWK', 'Mwk'),
  fiat('MXN', 'Mxn', { clabeNumber: { ...digits(18, 18), check: 'clabe' } }, ['SPEI']),
  directoryBank('MYR', 'Myr', {}),
  fiat('NGN', 'Ngn', { accountNumber: digits(10, 10), bankName: text(true) }, ['BANK_TRANSFER'], { bankNameFromDirectory: true }),
  fiat('PHP', 'Php', { bankName: text(true), accountNumber: digits(8, 16) }, ['BANK_TRANSFER'], { bankNameFromDirectory: true }),
  fiat(
    'PKR',
    'Pkr',
    {
      bankName: text(true),
      accountNumber: text(false, 34),
      iban: { required: false, minLength: 24, maxLength: 24, pattern: '^PK[0-9]{2}[A-Z]{4}[0-9]{16}$', check: 'iban' },
      phoneNumber: phone(false),
    },
    ['BANK_TRANSFER', 'MOBILE_MONEY'],
    {
      bankNameFromDirectory: true,
      anyOf: [['accountNumber'], ['iban'], ['phoneNumber']],
    },
  ),
  mobileMoney('RWF', 'Rwf', '^\\+250[0-9]{9}$'),
  fiat('SGD', 'Sgd', { bankName: text(false), accountNumber: text(true, 34), swiftCode: swiftCode(true) }, ['PAYNOW', 'FAST', 'BANK_TRANSFER']),
  // El Salvador's rails move US dollars: an SLV account holds USD.
  fiat(
    'SLV',
    'Slv',
    { bankName: text(false), accountNumber: text(false, 34), bankAccountType: bankAccountType(false), phoneNumber: phone(false) },
    ['BANK_TRANSFER', 'MOBILE_MONEY'],
    {
      currencies: ['USD'],
      anyOf: [['accountNumber', 'bankAccountType'], ['phoneNumber']],
    },
  ),
  directoryBank('THB', 'Thb', {}),
  fiat('TRY', 'Try', { iban: iban(26, 'TR'), swiftCode: swiftCode() }, ['BANK_TRANSFER']),
  mobileMoney('TZS', 'Tzs', '^\\+255[0-9]{9}$'),
  mobileMoney('UGX', 'Ugx'),
  fiat(
    'USD',
    'Usd',
    {
      accountNumber: { required: true, minLength: 4, maxLength: 17, pattern: '^[0-9]{4,17}$' },
      routingNumber: { ...digits(9, 9), check: 'abaRoutingNumber' },
      bankName: text(false, 140),
      bankAccountType: bankAccountType(false),
      intermediaryBankName: text(false, 140),
      intermediaryRoutingNumber: { ...digits(9, 9, false), check: 'abaRoutingNumber' },
      fiToFiInformation: { required: false, maxLength: 210 },
    },
    ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
  ),
  directoryBank('VND', 'Vnd', {}),
  mobileMoney('XAF', 'Xaf', undefined, ['CM', 'CG']),
  mobileMoney('XOF', 'Xof', undefined, ['BJ', 'CI', 'SN', 'TG']),
  fiat('ZAR', 'Zar', { accountNumber: digits(9, 13), bankName: text(true) }, ['BANK_TRANSFER'], { bankNameFromDirectory: true }),
  mobileMoney('ZMW', 'Zmw', '^\\+260[0-9]{9}$'),
];

/** A correspondent-bank account in any fiat currency the service knows, for corridors without a local rail. */
export const SWIFT_ACCOUNT_TYPE: FiatAccountType = {
  kind: 'FIAT',
  accountType: 'SWIFT_ACCOUNT',
  schemaPrefix: 'Swift',
  currencies: [],
  fields: {
    country: { required: true, minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$' },
    swiftCode: swiftCode(true),
    bankName: text(true),
    accountNumber: text(false, 34),
    iban: { required: false, minLength: 15, maxLength: 34, pattern: GENERIC_IBAN_PATTERN, check: 'iban' },
  },
  paymentRails: ['SWIFT'],
  beneficiary: plain,
  anyOf: [['accountNumber'], ['iban']],
};

export const WALLET_ACCOUNT_TYPES: readonly WalletAccountType[] = [
  { kind: 'WALLET', accountType: 'BASE_WALLET', schemaPrefix: 'BaseWallet', currencies: ['USDC'], addressFormat: 'EVM' },
  { kind: 'WALLET', accountType: 'ETHEREUM_WALLET', schemaPrefix: 'EthereumWallet', currencies: ['USDC', 'USDT'], addressFormat: 'EVM' },
  { kind: 'WALLET', accountType: 'POLYGON_WALLET', schemaPrefix: 'PolygonWallet', currencies: ['USDC'], addressFormat: 'EVM' },
  { kind: 'WALLET', accountType: 'PLASMA_WALLET', schemaPrefix: 'PlasmaWallet', currencies: ['USDT'], addressFormat: 'EVM' },
  { kind: 'WALLET', accountType: 'ARBITRUM_WALLET', schemaPrefix: 'ArbitrumWallet', currencies: ['USDC', 'USDT'], addressFormat: 'EVM' },
  { kind: 'WALLET', accountType: 'SOLANA_WALLET', schemaPrefix: 'SolanaWallet', currencies: ['USDC', 'USDT'], addressFormat: 'SOLANA' },
  { kind: 'WALLET', accountType: 'SPARK_WALLET', schemaPrefix: 'SparkWallet', currencies: ['BTC', 'USDB'], addressFormat: 'SPARK' },
  { kind: 'WALLET', accountType: 'TRON_WALLET', schemaPrefix: 'TronWallet', currencies: ['USDT'], addressFormat: 'TRON' },
];

export const LIGHTNING_ACCOUNT_TYPE: LightningAccountType = { kind: 'LIGHTNING', accountType: 'LIGHTNING', schemaPrefix: 'Lightning', currencies: ['BTC'] };
/** Responses may name the Lightning variant this way too (reference); requests accept it as well. */
export const LIGHTNING_ALIAS = 'LIGHTNING_ACCOUNT';

export const ACCOUNT_TYPES: readonly AccountTypeSpec[] = [...FIAT_ACCOUNT_TYPES, SWIFT_ACCOUNT_TYPE, ...WALLET_ACCOUNT_TYPES, LIGHTNING_ACCOUNT_TYPE];

const byType = new Map<string, AccountTypeSpec>(ACCOUNT_TYPES.map((t) => [t.accountType, t]));
byType.set(LIGHTNING_ALIAS, LIGHTNING_ACCOUNT_TYPE);

export function accountTypeSpec(accountType: string): AccountTypeSpec | undefined {
  return byType.get(accountType);
}

export const isWalletType = (accountType: string) => accountTypeSpec(accountType)?.kind === 'WALLET';

import { SUPPORTED_CURRENCY_CODES } from '../../../domain/currencies';
import { MAX_SANDBOX_FUND_AMOUNT } from '../../../domain/money';
import { z } from '../../../api/openapi-registry';
import { CurrencyAmountSchema, PageQuerySchema, pageOf } from '../../../api/schemas/common';

const reference = z.string().openapi({ description: 'Unique to the account; must travel with the payment so it is credited here', example: 'SVC4F1A9C03B2E7' });

const PaymentUsdAccountInfo = z
  .object({
    accountType: z.literal('USD_ACCOUNT'),
    accountNumber: z.string(),
    routingNumber: z.string(),
    bankName: z.string().optional(),
    bankAccountType: z.enum(['CHECKING', 'SAVINGS']).optional(),
    paymentRails: z.array(z.enum(['ACH', 'WIRE', 'RTP', 'FEDNOW'])),
    reference,
  })
  .openapi('PaymentUsdAccountInfo');

const PaymentEurAccountInfo = z
  .object({
    accountType: z.literal('EUR_ACCOUNT'),
    iban: z.string(),
    swiftCode: z.string().optional(),
    paymentRails: z.array(z.enum(['SEPA', 'SEPA_INSTANT'])),
    reference,
  })
  .openapi('PaymentEurAccountInfo');

const PaymentGbpAccountInfo = z
  .object({
    accountType: z.literal('GBP_ACCOUNT'),
    sortCode: z.string(),
    accountNumber: z.string(),
    paymentRails: z.array(z.enum(['FASTER_PAYMENTS'])),
    reference,
  })
  .openapi('PaymentGbpAccountInfo');

const PaymentMxnAccountInfo = z
  .object({ accountType: z.literal('MXN_ACCOUNT'), clabeNumber: z.string(), paymentRails: z.array(z.enum(['SPEI'])), reference })
  .openapi('PaymentMxnAccountInfo');

const PaymentSwiftAccountInfo = z
  .object({
    accountType: z.literal('SWIFT_ACCOUNT'),
    country: z.string(),
    swiftCode: z.string(),
    bankName: z.string(),
    accountNumber: z.string().optional(),
    iban: z.string().optional(),
    accountHolderName: z.string(),
    paymentRails: z.array(z.enum(['SWIFT'])),
    reference,
  })
  .openapi('PaymentSwiftAccountInfo');

const PaymentSparkWalletInfo = z
  .object({ accountType: z.literal('SPARK_WALLET'), address: z.string(), assetType: z.string(), invoice: z.string().optional() })
  .openapi('PaymentSparkWalletInfo', { description: "A Spark address; an EMBEDDED_WALLET account is funded at its wallet's own address" });

const PaymentBaseWalletInfo = z
  .object({ accountType: z.literal('BASE_WALLET'), address: z.string(), assetType: z.enum(['USDC']).optional() })
  .openapi('PaymentBaseWalletInfo');

const PaymentEthereumWalletInfo = z
  .object({ accountType: z.literal('ETHEREUM_WALLET'), address: z.string(), assetType: z.enum(['USDC', 'USDT']).optional() })
  .openapi('PaymentEthereumWalletInfo');

export const PaymentInstructionsSchema = z
  .object({
    instructionsNotes: z.string().optional(),
    isPlatformAccount: z.boolean().optional().openapi({ description: "true on the platform's own accounts, false on customers'" }),
    accountOrWalletInfo: z.discriminatedUnion('accountType', [
      PaymentUsdAccountInfo,
      PaymentEurAccountInfo,
      PaymentGbpAccountInfo,
      PaymentMxnAccountInfo,
      PaymentSwiftAccountInfo,
      PaymentSparkWalletInfo,
      PaymentBaseWalletInfo,
      PaymentEthereumWalletInfo,
    ]),
  })
  .openapi('PaymentInstructions');

export const InternalAccountTypeSchema = z.enum(['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET']).openapi('InternalAccountType');

export const InternalAccountSchema = z
  .object({
    id: z.string().openapi({ example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000002' }),
    customerId: z.string().optional().openapi({ description: 'Absent on accounts owned by the platform' }),
    type: InternalAccountTypeSchema,
    status: z.enum(['PENDING', 'ACTIVE', 'CLOSED', 'FROZEN', 'FAILED']),
    balance: CurrencyAmountSchema.openapi({ description: 'Available to spend: excludes held funds' }),
    totalBalance: CurrencyAmountSchema.openapi({ description: 'Including held funds' }),
    fundingPaymentInstructions: z.array(PaymentInstructionsSchema),
    privateEnabled: z.boolean().optional().openapi({ description: 'Wallet privacy; present on EMBEDDED_WALLET accounts only' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('InternalAccount');

export const InternalAccountListSchema = pageOf(InternalAccountSchema, 'InternalAccountListResponse');

export const PlatformInternalAccountListSchema = z.object({ data: z.array(InternalAccountSchema) }).openapi('PlatformInternalAccountListResponse');

const CurrencyFilter = z.enum(SUPPORTED_CURRENCY_CODES, { error: 'must be a supported currency code such as USD or USDB' }).optional();

export const InternalAccountListQuerySchema = PageQuerySchema.extend({
  customerId: z.string().max(200).optional(),
  currency: CurrencyFilter,
  type: InternalAccountTypeSchema.optional(),
});

export const PlatformInternalAccountQuerySchema = z.object({
  currency: CurrencyFilter,
  type: InternalAccountTypeSchema.optional(),
});

export const SandboxFundRequestSchema = z
  .object({
    amount: z
      .number({ error: (i) => (i.input === undefined ? 'amount is required' : 'amount must be an integer number of the smallest currency unit') })
      .int('amount must be an integer number of the smallest currency unit')
      .positive('amount must be greater than zero')
      .max(Number(MAX_SANDBOX_FUND_AMOUNT), `amount must be at most ${MAX_SANDBOX_FUND_AMOUNT}`)
      .openapi({ format: 'int64', example: 100000 }),
  })
  .openapi('SandboxFundRequest');

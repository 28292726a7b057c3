import { z } from '../../../api/openapi-registry';
import { AmountSchema, CurrencySchema } from '../../../api/schemas/common';
import { isId } from '../../../domain/ids';
import { MAX_AMOUNT } from '../../../domain/money';
import { isUmaAddress, MAX_UMA_ADDRESS } from '../../customers';
import { CUSTOMER_INFO_FIELD_NAMES, LOOKUP_LIFETIME_SECONDS } from '../domain/lookups';
import { WITHDRAWAL_CURRENCIES, WITHDRAWAL_NETWORKS, type WithdrawalNetwork } from '../domain/pricing/withdrawal-fees';

export const ReceiverLookupQuerySchema = z.object({
  senderUmaAddress: z
    .string()
    .max(MAX_UMA_ADDRESS)
    .refine((v) => v.length > MAX_UMA_ADDRESS || isUmaAddress(v), {
      message: 'must be a UMA address such as $alice@uma.example.com',
      params: { constraint: 'pattern' },
    })
    .optional()
    .openapi({ description: "UMA address of the sending customer (one of this platform's); optional, like customerId", example: '$sender@uma.example.com' }),
  customerId: z
    .string()
    .max(200)
    .refine((v) => isId('Customer', v), { message: 'must be a customer id (Customer:<uuid>)', params: { constraint: 'pattern' } })
    .optional()
    .openapi({
      description: 'The sending customer; optional. Without a sender the lookup prices every sending currency of the platform',
      example: 'Customer:019542f5-b3e7-1d02-0000-000000000009',
    }),
});

/** Not an IdParam: any text reaches the route, which answers INVALID_UMA_ADDRESS for malformed ones. */
export const UmaAddressParams = z.object({
  receiverUmaAddress: z
    .string()
    .openapi({ description: 'UMA address of the intended recipient (URL-encode `$` and `@` if your client needs to)', example: '$receiver@uma.example.com' }),
});

const CustomerInfoFieldNameSchema = z.enum(CUSTOMER_INFO_FIELD_NAMES).openapi('CustomerInfoFieldName');

const CounterpartyFieldDefinitionSchema = z.object({ name: CustomerInfoFieldNameSchema, mandatory: z.boolean() }).openapi('CounterpartyFieldDefinition');

const positiveAmount = AmountSchema.positive();

const CurrencyPreferenceSchema = z
  .object({
    currency: CurrencySchema.openapi({ description: 'A currency the receiver takes' }),
    sendingCurrency: CurrencySchema.openapi({
      description: 'Addition to the reference: the sending currency this entry is priced from (one entry per sending currency of the platform)',
    }),
    estimatedExchangeRate: z
      .number()
      .positive()
      .openapi({ description: 'Receiving units per sending unit, spread included, fees excluded; indicative (a quote locks the rate)', example: 0.9172 }),
    min: positiveAmount.openapi({ description: "What the corridor's smallest quote delivers, after fees; smallest receiving unit" }),
    max: positiveAmount.openapi({ description: "What the corridor's largest single quote delivers, after fees; smallest receiving unit" }),
  })
  .openapi('CurrencyPreference');

const lookupFields = {
  supportedCurrencies: z.array(CurrencyPreferenceSchema),
  requiredPayerDataFields: z.array(CounterpartyFieldDefinitionSchema).openapi({ description: 'Sender information the quote must carry in senderCustomerInfo' }),
  lookupId: z.string().openapi({ description: 'Name it as the quote’s lookupId', example: 'Lookup:019542f5-b3e7-1d02-0000-000000000009' }),
  expiresAt: z.iso
    .datetime()
    .openapi({ description: `Addition to the reference: quotes accept the lookupId until then (${LOOKUP_LIFETIME_SECONDS / 60} minutes)` }),
};

export const ReceiverExternalAccountLookupSchema = z
  .object({ ...lookupFields, accountId: z.string().openapi({ example: 'ExternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965' }) })
  .openapi('ReceiverExternalAccountLookupResponse');

export const ReceiverUmaLookupSchema = z
  .object({ ...lookupFields, receiverUmaAddress: z.string().openapi({ example: '$receiver@uma.example.com' }) })
  .openapi('ReceiverUmaLookupResponse');

export const EstimateCryptoWithdrawalFeeRequestSchema = z
  .object({
    internalAccountId: z
      .string()
      .min(1)
      .max(200)
      .openapi({ description: 'The crypto internal account to withdraw from', example: 'InternalAccount:a12dcbd6-dced-4ec4-b756-3c3a9ea3d123' }),
    currency: z.enum(WITHDRAWAL_CURRENCIES as [string, ...string[]]).openapi({ description: "The asset withdrawn; the account's currency", example: 'USDC' }),
    cryptoNetwork: z
      .enum(WITHDRAWAL_NETWORKS as [WithdrawalNetwork, ...WithdrawalNetwork[]])
      .openapi({ description: 'The network; it must carry the currency', example: 'SOLANA' }),
    amount: z.number().int().positive().max(Number(MAX_AMOUNT)).openapi({ format: 'int64', description: 'Smallest unit of the currency', example: 1000000 }),
    destinationAddress: z.string().min(1).max(8192).openapi({
      description: "An address of the network's form (a Lightning invoice, offer or address for LIGHTNING)",
      example: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
    }),
  })
  .strict()
  .openapi('EstimateCryptoWithdrawalFeeRequest');

export const EstimateCryptoWithdrawalFeeSchema = z
  .object({
    networkFee: AmountSchema.min(0).openapi({ description: 'Smallest unit of networkFeeAsset (lamports, wei, sun, satoshis)', example: 15000 }),
    networkFeeAsset: z.string().openapi({ example: 'SOL' }),
    applicationFee: AmountSchema.min(0).openapi({
      description: 'Smallest unit of the withdrawal currency; 0 (no withdrawal fee can be configured today)',
      example: 0,
    }),
    totalFee: AmountSchema.min(0).openapi({
      description: 'The network fee converted to the withdrawal currency (rounded up) plus the application fee',
      example: 2250,
    }),
    netAmount: AmountSchema.positive().openapi({ description: 'amount − totalFee, smallest unit of the withdrawal currency', example: 997750 }),
  })
  .openapi('EstimateCryptoWithdrawalFeeResponse');

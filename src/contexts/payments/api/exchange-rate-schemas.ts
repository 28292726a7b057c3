import { SUPPORTED_CURRENCY_CODES } from '../../../domain/currencies';
import { MAX_AMOUNT } from '../../../domain/money';
import { z } from '../../../api/openapi-registry';
import { AmountSchema, CurrencySchema } from '../../../api/schemas/common';
import { RAIL_LIFETIME_SECONDS } from '../domain/pricing/data/corridors';

const currencyCode = z.enum(SUPPORTED_CURRENCY_CODES, { error: 'must be a currency code this API knows, such as USD or INR' });

/** A query value given once arrives as a string, repeated as an array: always an array here. */
const repeatable = <T extends z.ZodType>(item: T) => z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(item).max(100));

/** Digits only: `1e3`, ` 12`, `0x10` and the empty string are refused, not coerced. */
const wholeNumber = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : v),
  z
    .number({ error: 'must be a whole number of the smallest sending unit' })
    .int('must be a whole number of the smallest sending unit')
    .min(0, 'must not be negative')
    .max(Number(MAX_AMOUNT), `must be at most ${MAX_AMOUNT}`),
);

export const ExchangeRateQuerySchema = z.object({
  sourceCurrency: currencyCode
    .optional()
    .openapi({ description: 'Only corridors sending this currency (USD, EUR, GBP, USDC, USDT, USDB or BTC send; others list nothing)', example: 'USD' }),
  destinationCurrency: repeatable(currencyCode)
    .optional()
    .openapi({
      description: 'Only corridors receiving these currencies; repeat the parameter for several (`&destinationCurrency=INR&destinationCurrency=GBP`)',
      example: ['INR'],
    }),
  sendingAmount: wholeNumber.optional().openapi({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    default: 10000,
    description: 'Smallest sending units to price (e.g. cents); default 10000',
    example: 10000,
  }),
});

export type ExchangeRateQuery = z.infer<typeof ExchangeRateQuerySchema>;

const nonNegativeAmount = AmountSchema.min(0);

const ExchangeRateFeesSchema = z
  .object({
    fixed: nonNegativeAmount.openapi({ description: "Fixed fees (the service's and the platform's), smallest sending unit" }),
    total: nonNegativeAmount.openapi({ description: 'Fixed and variable fees on sendingAmount, smallest sending unit' }),
  })
  .openapi('ExchangeRateFees');

export const ExchangeRateSchema = z
  .object({
    sourceCurrency: CurrencySchema,
    sendingAmount: nonNegativeAmount.openapi({ description: 'Echoed from the request (default 10000)' }),
    minSendingAmount: nonNegativeAmount.openapi({ description: 'The corridor minimum (below it quotes answer AMOUNT_OUT_OF_RANGE)' }),
    maxSendingAmount: nonNegativeAmount.openapi({ description: 'The corridor single-transaction maximum (above it TRANSACTION_SIZE_LIMIT_EXCEEDED)' }),
    destinationCurrency: CurrencySchema,
    destinationPaymentRail: z.enum(Object.keys(RAIL_LIFETIME_SECONDS) as [string, ...string[]]).openapi({
      description: "The rail the rate applies to: the reference's PaymentRail, or the network for crypto (LIGHTNING, SPARK, SOLANA, TRON…)",
      example: 'UPI',
    }),
    receivingAmount: nonNegativeAmount.openapi({ description: 'sendingAmount less fees, converted and rounded down; smallest receiving unit' }),
    exchangeRate: z.number().positive().openapi({ description: 'Sending units per receiving unit, fee-exclusive, spread included', example: 0.012121 }),
    fees: ExchangeRateFeesSchema,
    updatedAt: z.iso.datetime().openapi({ description: 'When this rate was fetched; rates are cached about 5 minutes' }),
  })
  .openapi('ExchangeRate');

export const ExchangeRateListSchema = z.object({ data: z.array(ExchangeRateSchema) }).openapi('ExchangeRateListResponse');

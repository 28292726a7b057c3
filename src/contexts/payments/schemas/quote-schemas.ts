import { z } from '../../../api/openapi-registry';
import { CurrencySchema } from '../../../api/schemas/common';
import { ScaChallengeSchema } from '../../sca';
import { MAX_AMOUNT } from '../../../domain/money';
import { DEPOSIT_NETWORK_NAMES, NETWORK_REQUIRED_CURRENCIES, type DepositNetwork } from '../../../domain/deposit-networks';

const AccountQuoteSourceSchema = z
  .object({ sourceType: z.literal('ACCOUNT'), accountId: z.string().min(1).max(200), customerId: z.string().min(1).max(200).optional() })
  .strict()
  .openapi('AccountQuoteSource');
const RealtimeFundingQuoteSourceSchema = z
  .object({
    sourceType: z.literal('REALTIME_FUNDING'),
    currency: z.string().min(3).max(5),
    customerId: z.string().min(1).max(200).optional(),
    cryptoNetwork: z
      .enum(DEPOSIT_NETWORK_NAMES as [DepositNetwork, ...DepositNetwork[]])
      .optional()
      .openapi({
        description: `The chain the funds are deposited on, which must carry the currency; required for the stablecoins (${NETWORK_REQUIRED_CURRENCIES.join(', ')}), refused for fiat. The paymentInstructions are an address on it.`,
        example: 'SOLANA',
      }),
  })
  .strict()
  .openapi('RealtimeFundingQuoteSource');
export const QuoteSourceSchema = z.discriminatedUnion('sourceType', [AccountQuoteSourceSchema, RealtimeFundingQuoteSourceSchema]).openapi('QuoteSourceOneOf');

const AccountDestinationSchema = z
  .object({ destinationType: z.literal('ACCOUNT'), accountId: z.string().min(1).max(200), paymentRail: z.string().min(1).max(32).optional() })
  .strict()
  .openapi('AccountDestination');
const UmaAddressDestinationSchema = z
  .object({ destinationType: z.literal('UMA_ADDRESS'), umaAddress: z.string().min(3).max(255), currency: z.string().min(3).max(5).optional() })
  .strict()
  .openapi('UmaAddressDestination');
export const QuoteDestinationSchema = z
  .discriminatedUnion('destinationType', [AccountDestinationSchema, UmaAddressDestinationSchema])
  .openapi('QuoteDestinationOneOf');

export const QuoteRequestSchema = z
  .object({
    lookupId: z.string().min(1).max(200).optional(),
    source: QuoteSourceSchema,
    destination: QuoteDestinationSchema,
    lockedCurrencySide: z.enum(['SENDING', 'RECEIVING']).openapi('QuoteLockSide'),
    lockedCurrencyAmount: z
      .number()
      .int()
      .positive()
      .max(Number(MAX_AMOUNT))
      .openapi({ format: 'int64', description: 'Smallest unit of the locked side’s currency; at most 9,000,000,000,000,000' }),
    immediatelyExecute: z.boolean().optional(),
    description: z.string().max(1024).optional(),
    remittanceInformation: z.string().max(80).optional(),
    purposeOfPayment: z.string().min(1).max(64).optional(),
    platformFeeOverride: z
      .object({
        platformFixedFee: z.object({ amount: z.number().int().min(0), currency: z.string().min(3).max(5) }).strict(),
        platformVariableFeeBps: z.number().int().min(0).max(10_000),
      })
      .strict()
      .optional()
      .openapi('PlatformFeeOverride'),
    senderCustomerInfo: z.record(z.string(), z.unknown()).optional(),
    scaFactor: z.enum(['SMS_OTP', 'TOTP', 'PASSKEY']).optional().openapi({
      description:
        'The factor of the strong customer authentication of a real-time-funding quote in an SCA region (default SMS_OTP); TOTP is refused: it cannot carry dynamic linking',
    }),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.scaFactor === 'TOTP')
      ctx.addIssue({
        code: 'custom',
        path: ['scaFactor'],
        message: 'TOTP cannot carry dynamic linking to the amount and payee; use SMS_OTP or PASSKEY',
        params: { constraint: 'dynamicLinking' },
      });
    if (q.destination.destinationType === 'UMA_ADDRESS' && !q.lookupId)
      ctx.addIssue({ code: 'custom', path: ['lookupId'], message: 'lookupId is required for UMA address destinations', params: { constraint: 'required' } });
    // Real-time funding is executed by the arrival of the money, never at creation (spec §4.2).
    if (q.immediatelyExecute && q.source.sourceType === 'REALTIME_FUNDING') {
      ctx.addIssue({
        code: 'custom',
        path: ['immediatelyExecute'],
        message: 'immediatelyExecute is allowed only for an internal-account or pullable external-account source',
        params: { constraint: 'accountSource' },
      });
    }
  })
  .openapi('QuoteRequest');

const amount = z.number().int().openapi({ format: 'int64' });

const sameAs = (name: string) => ({ description: `The reference's name of ${name} (the same value), for clients built from it` });

/** The reference's OutgoingRateDetails: the spec's `svc…` names for its `grid…` fields, and the reference's names beside them. */
export const RateDetailsSchema = z
  .object({
    counterpartyMultiplier: z.number(),
    counterpartyFixedFee: amount,
    svcApiMultiplier: z.number(),
    svcApiFixedFee: amount,
    svcApiVariableFeeRate: z.number(),
    svcApiVariableFeeAmount: amount,
    gridApiMultiplier: z.number().openapi(sameAs('svcApiMultiplier')),
    gridApiFixedFee: amount.openapi(sameAs('svcApiFixedFee')),
    gridApiVariableFeeRate: z.number().openapi(sameAs('svcApiVariableFeeRate')),
    gridApiVariableFeeAmount: amount.openapi(sameAs('svcApiVariableFeeAmount')),
  })
  .openapi('OutgoingRateDetails');

export const QuoteSchema = z
  .object({
    id: z.string(),
    status: z.enum(['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED']),
    createdAt: z.string().openapi({ format: 'date-time' }),
    expiresAt: z.string().openapi({ format: 'date-time' }),
    source: QuoteSourceSchema,
    destination: QuoteDestinationSchema,
    sendingCurrency: CurrencySchema,
    receivingCurrency: CurrencySchema,
    totalSendingAmount: amount,
    totalReceivingAmount: amount,
    exchangeRate: z.number(),
    feesIncluded: amount,
    platformFeesIncluded: amount.optional(),
    transactionId: z.string(),
    description: z.string().optional(),
    paymentInstructions: z
      .array(
        z.object({
          instructionsNotes: z.string().optional(),
          isPlatformAccount: z.boolean().optional(),
          accountOrWalletInfo: z.record(z.string(), z.unknown()),
        }),
      )
      .optional()
      .openapi({
        description:
          'REALTIME_FUNDING quotes: where to send the funds, with the reference that matches them to this quote. EMBEDDED_WALLET sources: one EMBEDDED_WALLET entry whose payloadToSign the wallet signs to execute the quote',
      }),
    rateDetails: RateDetailsSchema.optional(),
    scaChallenge: ScaChallengeSchema.optional().openapi({
      description: 'Only while PENDING_AUTHORIZATION (customers of SCA regions): the challenge POST /quotes/{quoteId}/authorize answers',
    }),
  })
  .openapi('Quote');

export const SandboxSendRequestSchema = z
  .object({
    quoteId: z.string().min(1).max(200),
    currencyCode: z.string().min(3).max(5).openapi({ description: "Must be the quote's sending (funding) currency" }),
    currencyAmount: z
      .number()
      .int()
      .positive()
      .max(Number(MAX_AMOUNT))
      .optional()
      .openapi({ format: 'int64', description: "Defaults to the quote's totalSendingAmount" }),
  })
  .strict()
  .openapi('SandboxSendRequest');

export const SandboxUmaReceiveRequestSchema = z
  .object({
    senderUmaAddress: z
      .string()
      .regex(/^\$[a-zA-Z0-9._+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/, 'must be a UMA address such as $sender@sandbox.example.com')
      .max(255),
    receiverUmaAddress: z.string().min(3).max(255).optional(),
    customerId: z.string().min(1).max(200).optional(),
    receivingCurrencyCode: z.string().min(3).max(5),
    receivingCurrencyAmount: z.number().int().positive().max(Number(MAX_AMOUNT)).openapi({ format: 'int64' }),
  })
  .strict()
  .openapi('SandboxUmaReceiveRequest');

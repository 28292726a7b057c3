import { z } from '../../../api/openapi-registry';
import { CardTransactionSchema } from '../../cards';
import { CurrencyAmountSchema, PageQuerySchema, pageOf } from '../../../api/schemas/common';
import { PAYMENT_RAILS } from '../domain/payment-rails';
import { ON_CHAIN_NETWORKS } from '../domain/on-chain-transactions';
import { RateDetailsSchema } from './quote-schemas';

const statuses = ['CREATED', 'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'] as const;
const types = ['INCOMING', 'OUTGOING'] as const;

// Where the money came from and went to: the reference's source and destination variants,
// discriminated by sourceType / destinationType.
const OnChainTransactionSchema = z
  .object({
    transactionHash: z.string().openapi({
      description: 'The hash of the transfer, in the form of its network (Solana: Base58 signature; EVM chains: 0x and 64 hex digits; others: 64 hex digits)',
      example: '0x9f2c6b6f1e0a4d3b8c7e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c',
    }),
    network: z.enum(ON_CHAIN_NETWORKS).openapi({ description: 'The network it settled on (a test network for a sandbox platform)', example: 'SOLANA' }),
  })
  .openapi('OnChainTransaction', { description: 'The on-chain transfer of this leg, shown once it settled' });
const AccountTransactionSourceSchema = z
  .object({
    sourceType: z.literal('ACCOUNT'),
    accountId: z.string().openapi({ example: 'InternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965' }),
    currency: z.string().optional(),
  })
  .openapi('AccountTransactionSource');
const UmaAddressTransactionSourceSchema = z
  .object({ sourceType: z.literal('UMA_ADDRESS'), umaAddress: z.string(), currency: z.string().optional() })
  .openapi('UmaAddressTransactionSource');
const RealtimeFundingTransactionSourceSchema = z
  .object({
    sourceType: z.literal('REALTIME_FUNDING'),
    currency: z.string().openapi({ example: 'USD' }),
    cryptoNetwork: z.string().optional().openapi({ description: "Funds sent on a chain: the quote's source.cryptoNetwork", example: 'SOLANA' }),
    onChainTransaction: OnChainTransactionSchema.optional().openapi({
      description: 'Funds sent on a chain: the transfer that brought them, once it settled (the payment is then PROCESSING or later)',
    }),
  })
  .openapi('RealtimeFundingTransactionSource', {
    description:
      'Funds that arrived from outside the service (a bank transfer or on-chain deposit); sandbox funding is shown this way. Originator details are best effort and absent in the sandbox.',
  });
export const TransactionSourceSchema = z
  .discriminatedUnion('sourceType', [AccountTransactionSourceSchema, UmaAddressTransactionSourceSchema, RealtimeFundingTransactionSourceSchema])
  .openapi('TransactionSource');

const AccountTransactionDestinationSchema = z
  .object({
    destinationType: z.literal('ACCOUNT'),
    accountId: z.string().openapi({ example: 'InternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965' }),
    currency: z.string().optional(),
    onChainTransaction: OnChainTransactionSchema.optional().openapi({
      description: 'A payout to an external wallet: the transfer that delivered it, once it settled (COMPLETED)',
    }),
  })
  .openapi('AccountTransactionDestination');
const UmaAddressTransactionDestinationSchema = z
  .object({ destinationType: z.literal('UMA_ADDRESS'), umaAddress: z.string(), currency: z.string().optional() })
  .openapi('UmaAddressTransactionDestination');
export const TransactionDestinationSchema = z
  .discriminatedUnion('destinationType', [AccountTransactionDestinationSchema, UmaAddressTransactionDestinationSchema])
  .openapi('TransactionDestination');

export const TransactionSchema = z
  .object({
    id: z.string().openapi({ example: 'Transaction:019542f5-b3e7-1d02-0000-000000000010' }),
    status: z.enum(statuses),
    type: z.enum(types),
    direction: z.enum(['CREDIT', 'DEBIT']),
    source: TransactionSourceSchema.optional(),
    destination: TransactionDestinationSchema,
    customerId: z.string().openapi({ description: "The customer whose account it is; the platform's id for the platform's own accounts" }),
    platformCustomerId: z.string().openapi({ description: "The customer's platformCustomerId; the platform's id for the platform's own accounts" }),
    receivedAmount: CurrencyAmountSchema,
    reconciliationInstructions: z
      .object({ reference: z.string() })
      .optional()
      .openapi({ description: "The receiving account's funding reference, quoted by the payer (absent for wallet accounts, which have an address instead)" }),
    failureReason: z.string().optional(),
    description: z.string().optional(),
    settledAt: z.iso.datetime().optional(),
    receiptDeliveryConfirmedAt: z.iso.datetime().optional(),
    // Outgoing payments (OutgoingTransaction of the reference).
    sentAmount: CurrencyAmountSchema.optional(),
    quoteId: z.string().optional(),
    agentId: z.string().optional().openapi({ description: 'The agent whose action made the transaction, when an agent made it' }),
    exchangeRate: z.number().optional(),
    fees: z.number().int().optional().openapi({ format: 'int64' }),
    platformFees: z.number().int().optional().openapi({ format: 'int64' }),
    rateDetails: RateDetailsSchema.optional(),
    paymentRail: z
      .enum(PAYMENT_RAILS)
      .nullable()
      .optional()
      .openapi({ description: 'Outgoing payments: the external rail, null when none is used (intra-service, UMA and on-chain transfers)' }),
    refund: z
      .object({
        reference: z.string(),
        initiatedAt: z.string(),
        settledAt: z.string().optional(),
        status: z.enum(['PENDING', 'COMPLETED', 'FAILED']),
        reason: z.enum(['TRANSACTION_FAILED', 'USER_CANCELLATION', 'TIMEOUT']).optional(),
      })
      .optional()
      .openapi('Refund'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Transaction');

/** A payment or a card transaction (the reference's TransactionOneOf, discriminated on `type`). */
export const TransactionOrCardSchema = z.union([TransactionSchema, CardTransactionSchema]).openapi('TransactionOneOf');

export const TransactionListSchema = pageOf(TransactionOrCardSchema, 'TransactionListResponse');

const identifier = (description: string) => z.string().min(1).max(255).optional().openapi({ description });
const dateTimeFilter = (description: string) => z.iso.datetime({ offset: true }).optional().openapi({ description });

/** Every filter the reference documents for GET /transactions. */
export const TransactionListQuerySchema = PageQuerySchema.extend({
  customerId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: "The customer's id; the platform's own id selects the transactions of the platform's own accounts" }),
  platformCustomerId: identifier("The customer's platformCustomerId (the platform's id selects the platform's own transactions)"),
  accountIdentifier: identifier(
    'An account on either side: an account id, an internal account funding reference, a UMA address or an originator account identifier',
  ),
  senderAccountIdentifier: identifier(
    'The source account: an account id, an internal account funding reference, a UMA address or an originator account identifier',
  ),
  receiverAccountIdentifier: identifier('The destination account: an account id, an internal account funding reference or a UMA address'),
  status: z.enum(statuses).optional(),
  type: z.enum(types).optional(),
  reference: identifier('The reconciliation reference (reconciliationInstructions.reference)'),
  startDate: dateTimeFilter('Transactions created at or after this time (ISO 8601 with offset)'),
  endDate: dateTimeFilter('Transactions created at or before this time (ISO 8601 with offset)'),
  sortOrder: z.enum(['asc', 'desc']).default('desc').openapi({ description: 'By createdAt: desc (newest first, the default) or asc (oldest first)' }),
}).refine((q) => !q.startDate || !q.endDate || Date.parse(q.startDate) <= Date.parse(q.endDate), {
  message: 'endDate must not be before startDate',
  path: ['endDate'],
  params: { constraint: 'range' },
});

export type TransactionListQuery = z.infer<typeof TransactionListQuerySchema>;

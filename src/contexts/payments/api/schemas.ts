import { z } from '../../../api/openapi-registry';
import { CurrencyAmountSchema, PageQuerySchema, pageOf } from '../../../api/schemas/common';

const statuses = ['CREATED', 'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'] as const;

export const TransactionSchema = z
  .object({
    id: z.string().openapi({ example: 'Transaction:019542f5-b3e7-1d02-0000-000000000010' }),
    status: z.enum(statuses),
    type: z.enum(['INCOMING', 'OUTGOING']),
    direction: z.enum(['CREDIT', 'DEBIT']),
    source: z.record(z.string(), z.unknown()).optional(),
    destination: z.record(z.string(), z.unknown()),
    customerId: z.string().optional(),
    platformCustomerId: z.string().optional(),
    receivedAmount: CurrencyAmountSchema,
    failureReason: z.string().optional(),
    description: z.string().optional(),
    settledAt: z.iso.datetime().optional(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Transaction');

export const TransactionListSchema = pageOf(TransactionSchema, 'TransactionListResponse');

const id = z.string().min(1).max(200);

export const TransactionListQuerySchema = PageQuerySchema.extend({
  customerId: id.optional().openapi({ description: "The customer's transactions; the platform's id selects the platform's own" }),
  platformCustomerId: z.string().min(1).max(255).optional(),
  accountIdentifier: id.optional().openapi({ description: 'An account on either side (sender or receiver)' }),
  senderAccountIdentifier: id.optional(),
  receiverAccountIdentifier: id.optional(),
  status: z.enum(statuses).optional(),
  type: z.enum(['INCOMING', 'OUTGOING']).optional(),
  reference: z.string().min(1).max(255).optional().openapi({ description: 'The payment reference (none of today\'s transactions carry one)' }),
  startDate: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Created at or after (inclusive), ISO 8601' }),
  endDate: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Created at or before (inclusive), ISO 8601' }),
  sortOrder: z.enum(['asc', 'desc']).default('desc').openapi({ description: 'By creation time; newest first by default' }),
});

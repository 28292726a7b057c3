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

export const TransactionListQuerySchema = PageQuerySchema.extend({
  customerId: z.string().optional(),
  status: z.enum(statuses).optional(),
  type: z.enum(['INCOMING', 'OUTGOING']).optional(),
});

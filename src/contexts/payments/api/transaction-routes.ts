import { transactionViews } from '../services/transaction-views';
import { cancelTransaction, findTransactionLedgerEntries, findTransactionView, listTransactions } from '../services/transactions';
import { TransactionLedgerEntriesSchema } from '../../ledger';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { TransactionListQuerySchema, TransactionListSchema, TransactionOrCardSchema, TransactionSchema } from '../schemas/transaction-schemas';
import { z } from '../../../api/openapi-registry';
import { confirmReceiptDelivery } from '../services/outgoing-payments';

export const transactionRoutes = [
  defineRoute({
    method: 'get',
    path: '/transactions',
    operationId: 'listTransactions',
    summary: 'List transactions',
    description: 'List transactions, newest first unless sortOrder=asc, with filters',
    tags: ['Transactions'],
    query: TransactionListQuerySchema,
    responses: { 200: { description: 'A page of transactions', schema: TransactionListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listTransactions(em, caller.platformId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/transactions/:transactionId',
    operationId: 'getTransactionById',
    summary: 'Get transaction by ID',
    tags: ['Transactions'],
    params: IdParam('transactionId'),
    responses: {
      200: { description: 'The transaction (a payment, or a card transaction: type CARD)', schema: TransactionOrCardSchema },
      401: errorResponses[401],
      404: errorResponses[404],
    },
    handler: async ({ em, caller, params }) => ({ status: 200, body: await findTransactionView(em, caller.platformId, params.transactionId) }),
  }),
  defineRoute({
    method: 'get',
    path: '/transactions/:transactionId/ledger-entries',
    operationId: 'listTransactionLedgerEntries',
    summary: "List a transaction's ledger entries",
    description:
      'The double-entry journal entries the transaction posted (funds held, settled, released, returned …), oldest first, each with its debits and credits. Beyond the public reference (for the dashboard; HTTP Basic works too).',
    tags: ['Transactions'],
    params: IdParam('transactionId'),
    responses: {
      200: { description: "The transaction's entries", schema: TransactionLedgerEntriesSchema },
      401: errorResponses[401],
      404: errorResponses[404],
    },
    handler: async ({ em, caller, params }) => ({ status: 200, body: await findTransactionLedgerEntries(em, caller.platformId, params.transactionId) }),
  }),
  defineRoute({
    method: 'post',
    path: '/transactions/:transactionId/cancel',
    permission: 'TRANSACT',
    operationId: 'cancelTransaction',
    summary: 'Cancel a bank transfer',
    description: 'Cancel a bank transfer (ACH push or pull, wire, SWIFT) the bank has not settled yet; funds already taken are refunded',
    tags: ['Transactions'],
    params: IdParam('transactionId'),
    idempotent: 'workflow',
    body: z
      .object({ reason: z.string().min(1).max(255).optional() })
      .strict()
      .openapi('CancelTransactionRequest'),
    responses: {
      200: { description: 'Cancelled: the transaction is FAILED with its refund COMPLETED', schema: TransactionSchema },
      401: errorResponses[401],
      404: errorResponses[404],
      409: { description: 'TRANSACTION_NOT_CANCELLABLE: settled already, or not a bank-rail transfer or pull', schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, params, body, deps, idempotencyKey }) => ({
      status: 200 as const,
      body: await cancelTransaction(em, deps.temporal, caller.platformId, params.transactionId, {
        ...(body.reason ? { reason: body.reason } : {}),
        ...(idempotencyKey ? { requestKey: idempotencyKey } : {}),
      }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/transactions/:transactionId/confirm',
    permission: 'TRANSACT',
    operationId: 'confirmReceiptDelivery',
    summary: 'Confirm receipt delivery',
    description: 'Confirm the receipt of a transaction was delivered to the customer (repeat to move the time)',
    tags: ['Transactions'],
    params: IdParam('transactionId'),
    body: z
      .object({ receiptDeliveryConfirmedAt: z.iso.datetime({ offset: true }).optional() })
      .strict()
      .openapi('ConfirmReceiptDeliveryRequest'),
    responses: {
      200: { description: 'The transaction with receiptDeliveryConfirmedAt', schema: TransactionSchema },
      401: errorResponses[401],
      404: errorResponses[404],
    },
    handler: async ({ em, caller, params, body }) => {
      const tx = await confirmReceiptDelivery(em, {
        platformId: caller.platformId,
        transactionId: params.transactionId,
        ...(body.receiptDeliveryConfirmedAt ? { at: new Date(body.receiptDeliveryConfirmedAt) } : {}),
      });
      return { status: 200, body: (await transactionViews(em, [tx]))[0] };
    },
  }),
];

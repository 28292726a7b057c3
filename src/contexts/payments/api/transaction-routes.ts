import { Transaction } from '../entities/index';
import { DomainError } from '../../../domain/errors';
import { transactionViews } from '../services/transaction-views';
import { listTransactions } from '../services/transactions';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { TransactionListQuerySchema, TransactionListSchema, TransactionOrCardSchema, TransactionSchema } from './schemas';
import { z } from '../../../api/openapi-registry';
import { cancelPayout } from '../starters/payment';
import { confirmReceiptDelivery } from '../services/outgoing-payments';
import { currentTransactionView } from './quote-routes';
import { findCardTransactionView } from '../../cards';

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
    handler: async ({ em, caller, params }) => {
      if (params.transactionId.startsWith('CardTransaction:')) {
        const card = await findCardTransactionView(em, caller.platformId, params.transactionId);
        if (!card) throw DomainError.notFound('Transaction');
        return { status: 200, body: card };
      }
      const tx = await em.findOne(Transaction, { id: params.transactionId, platformId: caller.platformId });
      if (!tx) throw DomainError.notFound('Transaction');
      return { status: 200, body: (await transactionViews(em, [tx]))[0] };
    },
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
    handler: async ({ em, caller, params, body, deps, idempotencyKey }) => {
      const tx = await em.findOne(Transaction, { id: params.transactionId, platformId: caller.platformId });
      if (!tx) throw DomainError.notFound('Transaction');
      // A bank transfer out, or a pull from the customer's bank (ACH pull). Whether the bank has
      // answered is the workflow's to say, not this read's: a retry of a cancel that succeeded
      // finds the payment FAILED here and is still answered by its update id.
      const pull = String(tx.source.accountId ?? '').startsWith('ExternalAccount:');
      if (!(pull || (tx.type === 'OUTGOING' && CANCELLABLE_RAILS.has(tx.paymentRail ?? '')))) {
        throw new DomainError(
          'TRANSACTION_NOT_CANCELLABLE',
          `Only a PROCESSING pull, or outgoing transfer on ${[...CANCELLABLE_RAILS].join(', ')}, can be cancelled`,
        );
      }
      await cancelPayout(deps.temporal, tx.id, { ...(body.reason ? { reason: body.reason } : {}), ...(idempotencyKey ? { requestKey: idempotencyKey } : {}) });
      return { status: 200 as const, body: await currentTransactionView(em, tx.id) };
    },
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

/** Bank rails whose transfers a bank can still recall before settlement. */
const CANCELLABLE_RAILS = new Set(['ACH', 'WIRE', 'SWIFT']);

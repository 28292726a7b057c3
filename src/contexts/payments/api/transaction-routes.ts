import { Transaction } from '../entities/index';
import { DomainError } from '../../../domain/errors';
import { transactionViews } from '../services/transaction-views';
import { listTransactions } from '../services/transactions';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { TransactionListQuerySchema, TransactionListSchema, TransactionSchema } from './schemas';

export const transactionRoutes = [
  defineRoute({
    method: 'get',
    path: '/transactions',
    operationId: 'listTransactions',
    summary: 'List transactions, newest first unless sortOrder=asc, with filters',
    tags: ['Transactions'],
    query: TransactionListQuerySchema,
    responses: { 200: { description: 'A page of transactions', schema: TransactionListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listTransactions(em, caller.platformId, query) }),
  }),
  defineRoute({
    method: 'get',
    path: '/transactions/:transactionId',
    operationId: 'getTransactionById',
    summary: 'Fetch one transaction',
    tags: ['Transactions'],
    params: IdParam('transactionId'),
    responses: { 200: { description: 'The transaction', schema: TransactionSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => {
      const tx = await em.findOne(Transaction, { id: params.transactionId, platformId: caller.platformId });
      if (!tx) throw DomainError.notFound('Transaction');
      return { status: 200, body: (await transactionViews(em, [tx]))[0] };
    },
  }),
];

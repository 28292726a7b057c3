import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer } from '../../customers/entities';
import { Transaction } from '../entities';
import { DomainError } from '../../../domain/errors';
import { listPage } from '../../../services/listing';
import { transactionView } from '../services/transaction-views';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { TransactionListQuerySchema, TransactionListSchema, TransactionSchema } from './schemas';

async function views(em: EntityManager, rows: Transaction[]) {
  const ids = [...new Set(rows.map((r) => r.customerId).filter((id): id is string => !!id))];
  const customers = ids.length ? await em.find(Customer, { id: { $in: ids } }) : [];
  const byId = new Map(customers.map((c) => [c.id, c.platformCustomerId]));
  return rows.map((r) => transactionView(r, r.customerId ? (byId.get(r.customerId) ?? null) : null));
}

export const transactionRoutes = [
  defineRoute({
    method: 'get',
    path: '/transactions',
    operationId: 'listTransactions',
    summary: 'List transactions, newest first',
    tags: ['Transactions'],
    query: TransactionListQuerySchema,
    responses: { 200: { description: 'A page of transactions', schema: TransactionListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => {
      const where = {
        platformId: caller.platformId,
        ...(query.customerId ? { customerId: query.customerId } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.type ? { type: query.type } : {}),
      };
      return { status: 200, body: await listPage(em, Transaction, where, query, (rows) => views(em, rows)) };
    },
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
      return { status: 200, body: (await views(em, [tx]))[0] };
    },
  }),
];

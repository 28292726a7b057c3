import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { z } from 'zod';
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

/**
 * Every filter the reference documents for GET /transactions. Account identifiers are account
 * ids (internal or external) on the transaction's source (sender) or destination (receiver).
 * No transaction carries a payment reference yet, so a reference filter matches none.
 */
async function transactionFilter(em: EntityManager, platformId: string, query: z.infer<typeof TransactionListQuerySchema>): Promise<FilterQuery<Transaction>> {
  const and: FilterQuery<Transaction>[] = [{ platformId }];
  if (query.customerId) and.push({ customerId: query.customerId === platformId ? null : query.customerId });
  if (query.platformCustomerId) {
    const customers = await em.find(Customer, { platformId, platformCustomerId: query.platformCustomerId }, { fields: ['id'] });
    and.push({ customerId: { $in: customers.map((c) => c.id) } });
  }
  if (query.accountIdentifier) and.push({ $or: [{ source: { accountId: query.accountIdentifier } }, { destination: { accountId: query.accountIdentifier } }] } as FilterQuery<Transaction>);
  if (query.senderAccountIdentifier) and.push({ source: { accountId: query.senderAccountIdentifier } } as FilterQuery<Transaction>);
  if (query.receiverAccountIdentifier) and.push({ destination: { accountId: query.receiverAccountIdentifier } } as FilterQuery<Transaction>);
  if (query.status) and.push({ status: query.status });
  if (query.type) and.push({ type: query.type });
  if (query.reference) and.push({ id: { $in: [] } });
  if (query.startDate) and.push({ createdAt: { $gte: new Date(query.startDate) } });
  if (query.endDate) and.push({ createdAt: { $lte: new Date(query.endDate) } });
  return { $and: and };
}

export const transactionRoutes = [
  defineRoute({
    method: 'get',
    path: '/transactions',
    operationId: 'listTransactions',
    summary: 'List transactions (newest first unless sortOrder=asc), with the reference\'s filters',
    tags: ['Transactions'],
    query: TransactionListQuerySchema,
    responses: { 200: { description: 'A page of transactions', schema: TransactionListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => {
      const where = await transactionFilter(em, caller.platformId, query);
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

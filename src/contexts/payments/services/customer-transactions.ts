import type { EntityManager } from '@mikro-orm/postgresql';
import { findCardTransactionView } from '../../cards';
import { DomainError } from '../../../domain/errors';
import type { TransactionListQuery } from '../schemas/transaction-schemas';
import { Quote, Transaction } from '../entities/index';
import { quoteView } from './quotes';
import { transactionViews } from './transaction-views';
import { listTransactions } from './transactions';

/** One customer's transactions (payments and card transactions), with every other filter of GET /transactions. */
export function listCustomerTransactions(
  em: EntityManager,
  platformId: string,
  customerId: string,
  query: Omit<TransactionListQuery, 'customerId' | 'platformCustomerId'>,
) {
  return listTransactions(em, platformId, { ...query, customerId });
}

/** One of the customer's transactions; another customer's (or the platform's own) is not found, as an unknown id is. */
export async function findCustomerTransactionView(em: EntityManager, platformId: string, customerId: string, transactionId: string): Promise<unknown> {
  if (transactionId.startsWith('CardTransaction:')) {
    const card = (await findCardTransactionView(em, platformId, transactionId)) as { customerId?: string } | null;
    if (!card || card.customerId !== customerId) throw DomainError.notFound('Transaction');
    return card;
  }
  const tx = await em.findOne(Transaction, { id: transactionId, platformId, customerId });
  if (!tx) throw DomainError.notFound('Transaction');
  return (await transactionViews(em, [tx]))[0];
}

/** A quote of the platform as GET /quotes/{id} shows it, or null. */
export async function findQuoteView(em: EntityManager, platformId: string, quoteId: string) {
  const quote = await em.findOne(Quote, { id: quoteId, platformId });
  return quote ? quoteView(quote) : null;
}

/** Transactions as GET /transactions/{id} shows them, by id (those of the platform only). */
export async function transactionViewsByIds(em: EntityManager, platformId: string, ids: string[]): Promise<Map<string, unknown>> {
  if (ids.length === 0) return new Map();
  const rows = await em.find(Transaction, { id: { $in: ids }, platformId });
  const views = await transactionViews(em, rows);
  return new Map(rows.map((row, i) => [row.id, views[i]]));
}

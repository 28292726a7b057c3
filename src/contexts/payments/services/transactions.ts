import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { Customer } from '../../customers/entities/index';
import { InternalAccount } from '../../ledger/entities/index';
import { Transaction } from '../entities/index';
import { listPage } from '../../../services/listing';
import type { TransactionListQuery } from '../api/schemas';
import { transactionViews } from './transaction-views';

/**
 * The accounts an account identifier names. A transaction row stores its source and destination
 * as the reference shows them (`accountId`, `umaAddress`, an originator's `accountIdentifier`),
 * so those match as they are. An internal account is also named by its funding reference, the
 * identifier its funding instructions give payers; that one is resolved to the account's id here.
 * The bank coordinates shown in funding instructions (account numbers, IBANs, wallet addresses)
 * are derived from that reference and are not matched.
 */
async function accountIdsNamedBy(em: EntityManager, platformId: string, identifier: string): Promise<string[]> {
  const accounts = await em.find(InternalAccount, { platformId, $or: [{ id: identifier }, { fundingReference: identifier }] }, { fields: ['id'] });
  return [...new Set([identifier, ...accounts.map((a) => a.id)])];
}

async function receiverIs(em: EntityManager, platformId: string, identifier: string): Promise<FilterQuery<Transaction>> {
  const ids = await accountIdsNamedBy(em, platformId, identifier);
  return { $or: [{ destination: { accountId: { $in: ids } } }, { destination: { umaAddress: identifier } }] } as FilterQuery<Transaction>;
}

async function senderIs(em: EntityManager, platformId: string, identifier: string): Promise<FilterQuery<Transaction>> {
  const ids = await accountIdsNamedBy(em, platformId, identifier);
  return {
    $or: [{ source: { accountId: { $in: ids } } }, { source: { umaAddress: identifier } }, { source: { accountIdentifier: identifier } }],
  } as FilterQuery<Transaction>;
}

/** The WHERE clause of GET /transactions: every documented filter, all of them together (AND). */
export async function transactionFilter(em: EntityManager, platformId: string, q: TransactionListQuery): Promise<FilterQuery<Transaction>> {
  const and: FilterQuery<Transaction>[] = [{ platformId }];
  // The platform's own id stands for the platform's own accounts, whose transactions have no customer.
  if (q.customerId) and.push({ customerId: q.customerId === platformId ? null : q.customerId });
  if (q.platformCustomerId) {
    // Deleted customers included: their transactions still show their platformCustomerId.
    const customers = await em.find(Customer, { platformId, platformCustomerId: q.platformCustomerId }, { fields: ['id'] });
    const ofCustomers: FilterQuery<Transaction> = { customerId: { $in: customers.map((c) => c.id) } };
    and.push(q.platformCustomerId === platformId ? { $or: [ofCustomers, { customerId: null }] } : ofCustomers);
  }
  if (q.status) and.push({ status: q.status });
  if (q.type) and.push({ type: q.type });
  if (q.startDate) and.push({ createdAt: { $gte: new Date(q.startDate) } });
  if (q.endDate) and.push({ createdAt: { $lte: new Date(q.endDate) } });
  if (q.reference) {
    // The reconciliation reference of a payment into an internal account is that account's funding reference.
    const accounts = await em.find(InternalAccount, { platformId, fundingReference: q.reference }, { fields: ['id'] });
    and.push({ destination: { accountId: { $in: accounts.map((a) => a.id) } } } as FilterQuery<Transaction>);
  }
  if (q.receiverAccountIdentifier) and.push(await receiverIs(em, platformId, q.receiverAccountIdentifier));
  if (q.senderAccountIdentifier) and.push(await senderIs(em, platformId, q.senderAccountIdentifier));
  if (q.accountIdentifier) and.push({ $or: [await senderIs(em, platformId, q.accountIdentifier), await receiverIs(em, platformId, q.accountIdentifier)] });
  return { $and: and };
}

export async function listTransactions(em: EntityManager, platformId: string, q: TransactionListQuery) {
  return listPage(em, Transaction, await transactionFilter(em, platformId, q), q, (rows) => transactionViews(em, rows));
}

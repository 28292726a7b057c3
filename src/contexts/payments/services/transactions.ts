import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { Customer } from '../../customers';
import { InternalAccount, transactionLedgerEntries } from '../../ledger';
import { Transaction } from '../entities/index';
import { listPage } from '../../../services/listing';
import { decodeCursor, toPage, type SortOrder } from '../../../domain/pagination';
import type { Client } from '@temporalio/client';
import { CardTransaction, cardTransactionViews, findCardTransactionView } from '../../cards';
import { DomainError } from '../../../domain/errors';
import { cancelPayout } from '../starters/payment';
import { CANCELLABLE_RAILS, mayAskToCancel } from '../domain/transaction-state';
import type { TransactionListQuery } from '../schemas/transaction-schemas';
import { currentTransactionView, transactionViews } from './transaction-views';

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

/**
 * The filter of card transactions for GET /transactions, or null when the query excludes them:
 * a status or type filter (their values are the payments' own), reference or sender/receiver
 * filters (payment routing), or the platform's own transactions (card transactions always have
 * a cardholder).
 */
async function cardTransactionFilter(em: EntityManager, platformId: string, q: TransactionListQuery): Promise<FilterQuery<CardTransaction> | null> {
  if (
    q.status ||
    q.type ||
    q.reference ||
    q.senderAccountIdentifier ||
    q.receiverAccountIdentifier ||
    q.customerId === platformId ||
    q.platformCustomerId === platformId
  )
    return null;
  const and: FilterQuery<CardTransaction>[] = [{ platformId }];
  if (q.customerId) and.push({ customerId: q.customerId });
  if (q.platformCustomerId) {
    const customers = await em.find(Customer, { platformId, platformCustomerId: q.platformCustomerId }, { fields: ['id'] });
    and.push({ customerId: { $in: customers.map((c) => c.id) } });
  }
  if (q.startDate) and.push({ createdAt: { $gte: new Date(q.startDate) } });
  if (q.endDate) and.push({ createdAt: { $lte: new Date(q.endDate) } });
  if (q.accountIdentifier) and.push({ accountId: { $in: await accountIdsNamedBy(em, platformId, q.accountIdentifier) } });
  return { $and: and };
}

/**
 * Payments and card transactions in one list (the reference's TransactionOneOf), in (createdAt,
 * id) order: each table gives its next `limit + 1` rows after the cursor, the two are merged and
 * the page is cut from the merge, so one cursor pages through both.
 */
export async function listTransactions(em: EntityManager, platformId: string, q: TransactionListQuery) {
  const cardWhere = await cardTransactionFilter(em, platformId, q);
  const paymentWhere = await transactionFilter(em, platformId, q);
  if (!cardWhere) return listPage(em, Transaction, paymentWhere, q, (rows) => transactionViews(em, rows));
  const order: SortOrder = q.sortOrder ?? 'desc';
  const after = q.cursor ? decodeCursor(q.cursor, order) : null;
  const beyond = order === 'asc' ? '$gt' : '$lt';
  const keyset = after
    ? { $or: [{ createdAt: { [beyond]: new Date(after.createdAt) } }, { createdAt: new Date(after.createdAt), id: { [beyond]: after.id } }] }
    : {};
  const options = { orderBy: { createdAt: order, id: order } as never, limit: q.limit + 1 };
  const [payments, cards, paymentCount, cardCount] = await Promise.all([
    em.find(Transaction, { $and: [paymentWhere, keyset] } as FilterQuery<Transaction>, options),
    em.find(CardTransaction, { $and: [cardWhere, keyset] } as FilterQuery<CardTransaction>, options),
    em.count(Transaction, paymentWhere),
    em.count(CardTransaction, cardWhere),
  ]);
  const sign = order === 'asc' ? 1 : -1;
  const merged = [...payments, ...cards].sort((a, b) => sign * (a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
  const page = toPage(merged.slice(0, q.limit + 1), q.limit, paymentCount + cardCount, (row) => row, order);
  const views = new Map<string, unknown>();
  const paymentRows = page.data.filter((r): r is Transaction => r instanceof Transaction);
  const cardRows = page.data.filter((r): r is CardTransaction => r instanceof CardTransaction);
  (await transactionViews(em, paymentRows)).forEach((view, i) => views.set(paymentRows[i]!.id, view));
  (await cardTransactionViews(em, cardRows)).forEach((view, i) => views.set(cardRows[i]!.id, view));
  return { ...page, data: page.data.map((r) => views.get(r.id)) };
}

/** A transaction of the platform as it is now: a payment, or a card transaction (type CARD); 404 otherwise. */
export async function findTransactionView(em: EntityManager, platformId: string, transactionId: string) {
  if (transactionId.startsWith('CardTransaction:')) {
    const card = await findCardTransactionView(em, platformId, transactionId);
    if (!card) throw DomainError.notFound('Transaction');
    return card;
  }
  const tx = await em.findOne(Transaction, { id: transactionId, platformId });
  if (!tx) throw DomainError.notFound('Transaction');
  return (await transactionViews(em, [tx]))[0]!;
}

/**
 * GET /transactions/{id}/ledger-entries (beyond the reference): what the transaction (a payment or a
 * card transaction) posted in the ledger; 404 for another platform's, as GET /transactions/{id}.
 */
export async function findTransactionLedgerEntries(em: EntityManager, platformId: string, transactionId: string) {
  const owned = transactionId.startsWith('CardTransaction:')
    ? await em.count(CardTransaction, { id: transactionId, platformId })
    : await em.count(Transaction, { id: transactionId, platformId });
  if (owned === 0) throw DomainError.notFound('Transaction');
  return { data: await transactionLedgerEntries(em, platformId, transactionId) };
}

/**
 * POST /transactions/{id}/cancel: a bank transfer the bank has not settled yet is cancelled by its
 * payment's workflow (funds already taken are refunded). A retry of a cancel that succeeded finds
 * the payment FAILED here and is still answered by its update id (the request's key). Returns the
 * transaction as it is now.
 */
export async function cancelTransaction(
  em: EntityManager,
  temporal: Client,
  platformId: string,
  transactionId: string,
  request: { reason?: string; requestKey?: string },
) {
  const tx = await em.findOne(Transaction, { id: transactionId, platformId });
  if (!tx) throw DomainError.notFound('Transaction');
  if (!mayAskToCancel({ type: tx.type, paymentRail: tx.paymentRail ?? null, sourceAccountId: String(tx.source.accountId ?? '') })) {
    throw new DomainError(
      'TRANSACTION_NOT_CANCELLABLE',
      `Only a PROCESSING pull, or outgoing transfer on ${[...CANCELLABLE_RAILS].join(', ')}, can be cancelled`,
    );
  }
  await cancelPayout(temporal, tx.id, request);
  return currentTransactionView(em, tx.id);
}

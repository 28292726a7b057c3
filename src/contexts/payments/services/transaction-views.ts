import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer } from '../../customers';
import { InternalAccount, fundingInstructions } from '../../ledger';
import { Transaction } from '../entities/index';
import { currencyView } from '../../../domain/currencies';
import { publicRail } from '../domain/payment-rails';
import { heldWhole } from '../../../db/joined-rows';

/** Public representations of stored rows. Amounts stay bigint here; the JSON writer emits them exactly. */

/** What a transaction's view needs besides its row, loaded in bulk by transactionViews. */
export interface TransactionViewContext {
  /** The platformCustomerId of the transaction's customer (null for the platform's own accounts). */
  platformCustomerId: string | null;
  /** The funding reference of the receiving internal account, when its funding instructions show one. */
  reconciliationReference: string | null;
}

/**
 * Where the money came from, in the reference's variants. The payment workflow records sandbox
 * funding as `SANDBOX_FUNDING`, which the reference does not know: it is money arriving from
 * outside the service, which the reference shows as a `REALTIME_FUNDING` source in the received
 * currency (the sandbox has no originator details to add).
 */
function sourceView(t: Transaction): Record<string, unknown> | undefined {
  const source = t.source as Record<string, unknown> | null | undefined;
  if (!source) return undefined;
  if (source.sourceType === 'SANDBOX_FUNDING') return { sourceType: 'REALTIME_FUNDING', currency: t.receivedCurrency };
  return source;
}

/**
 * A transaction as GET returns it and INCOMING_PAYMENT.* webhooks carry it.
 *
 * `customerId` and `platformCustomerId` are required by the reference. A transaction of one of the
 * platform's own accounts has no customer; it is shown with the platform's id in both fields, which
 * is also how the reference's `GET /transactions?customerId=` selects "transactions made on behalf
 * of the platform".
 */
export function transactionView(t: Transaction, ctx: TransactionViewContext) {
  const source = sourceView(t);
  return {
    id: t.id,
    status: t.status,
    type: t.type,
    direction: t.direction,
    ...(source ? { source } : {}),
    destination: { ...shownDestination(t.destination), currency: (t.destination.currency as string | undefined) ?? t.receivedCurrency },
    customerId: t.customerId ?? t.platformId,
    platformCustomerId: t.customerId ? (ctx.platformCustomerId ?? '') : t.platformId,
    receivedAmount: { amount: t.receivedAmount, currency: currencyView(t.receivedCurrency) },
    ...(ctx.reconciliationReference && t.status !== 'CREATED' ? { reconciliationInstructions: { reference: ctx.reconciliationReference } } : {}),
    ...(t.failureReason ? { failureReason: t.failureReason } : {}),
    ...(t.description ? { description: t.description } : {}),
    ...(t.settledAt ? { settledAt: t.settledAt.toISOString() } : {}),
    ...quotedFields(t),
    ...(t.type === 'OUTGOING' ? outgoingFields(t) : t.fees != null ? { fees: t.fees } : {}),
    ...(t.receiptDeliveryConfirmedAt ? { receiptDeliveryConfirmedAt: t.receiptDeliveryConfirmedAt.toISOString() } : {}),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/**
 * A UMA destination is shown by its address; the account it resolved to stays internal. A rail
 * is shown only when it is an external one (the reference's PaymentRail).
 */
export function shownDestination(destination: Record<string, unknown>): Record<string, unknown> {
  const { accountId, paymentRail, ...shown } = destination;
  const rail = publicRail(paymentRail as string | undefined);
  return { ...shown, ...(destination.destinationType === 'UMA_ADDRESS' ? {} : { accountId }), ...(rail ? { paymentRail: rail } : {}) };
}

/**
 * A quote's rate details under both names: the pricing stores the reference's `gridApi…` fields
 * (in quotes and transactions alike); the wire carries the spec's `svcApi…` (Svc for Grid) and
 * the reference's own, which typed clients built from it read.
 */
export function rateDetailsView(stored: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(stored).flatMap(([key, value]) =>
      key.startsWith('gridApi')
        ? [
            [key.replace(/^gridApi/, 'svcApi'), value],
            [key, value],
          ]
        : [[key, value]],
    ),
  );
}

/** What every transaction made from a quote shows (the reference's base Transaction): what was sent, the quote, its rate, any refund. */
function quotedFields(t: Transaction) {
  return {
    ...(t.sentAmount != null && t.sentCurrency ? { sentAmount: { amount: t.sentAmount, currency: currencyView(t.sentCurrency) } } : {}),
    ...(t.quoteId ? { quoteId: t.quoteId } : {}),
    ...(t.agentId ? { agentId: t.agentId } : {}),
    ...(t.exchangeRate != null ? { exchangeRate: t.exchangeRate } : {}),
    ...(t.refund ? { refund: t.refund } : {}),
  };
}

/** What an OutgoingTransaction adds: its price and rail. */
function outgoingFields(t: Transaction) {
  return {
    ...(t.fees != null ? { fees: t.fees } : {}),
    ...(t.platformFees != null ? { platformFees: t.platformFees } : {}),
    ...(t.rateDetails ? { rateDetails: rateDetailsView(t.rateDetails) } : {}),
    paymentRail: publicRail(t.paymentRail),
  };
}

/** Views of several transactions, with their customers and receiving internal accounts read in at most two queries. */
export async function transactionViews(em: EntityManager, rows: Transaction[]) {
  const customerIds = [...new Set(rows.map((r) => r.customerId).filter((id): id is string => !!id))];
  // Only internal accounts have a funding reference to show.
  const accountIds = [
    ...new Set(rows.map((r) => r.destination.accountId).filter((id): id is string => typeof id === 'string' && id.startsWith('InternalAccount:'))),
  ];
  // Rows this unit of work holds already (a payment step read them) are not read again.
  const heldCustomers = customerIds.map((id) => heldWhole(em, Customer, id)).filter((c): c is Customer => !!c);
  const heldAccounts = accountIds.map((id) => heldWhole(em, InternalAccount, id)).filter((a): a is InternalAccount => !!a);
  const missingCustomers = customerIds.filter((id) => !heldCustomers.some((c) => c.id === id));
  const missingAccounts = accountIds.filter((id) => !heldAccounts.some((a) => a.id === id));
  const [readCustomers, readAccounts] = await Promise.all([
    missingCustomers.length ? em.find(Customer, { id: { $in: missingCustomers } }) : [],
    missingAccounts.length ? em.find(InternalAccount, { id: { $in: missingAccounts } }) : [],
  ]);
  const customers = [...heldCustomers, ...readCustomers];
  const accounts = [...heldAccounts, ...readAccounts];
  const platformCustomerIds = new Map(customers.map((c) => [c.id, c.platformCustomerId]));
  const references = new Map(accounts.map((a) => [a.id, reconciliationReferenceOf(a)]));
  return rows.map((r) =>
    transactionView(r, {
      platformCustomerId: r.customerId ? (platformCustomerIds.get(r.customerId) ?? null) : null,
      reconciliationReference: typeof r.destination.accountId === 'string' ? (references.get(r.destination.accountId) ?? null) : null,
    }),
  );
}

/**
 * The reference a payer quotes to reach an internal account: its funding reference, when the
 * account's funding instructions show one (bank accounts do; wallets are reached by address).
 */
export function reconciliationReferenceOf(account: InternalAccount): string | null {
  const info = fundingInstructions(account)[0]?.accountOrWalletInfo as Record<string, unknown> | undefined;
  return info && typeof info.reference === 'string' ? info.reference : null;
}

/** The transaction as it is now, read afresh (the payment's workflow may have moved it on). */
export async function currentTransactionView(em: EntityManager, transactionId: string) {
  return (await transactionViews(em, [await em.fork().findOneOrFail(Transaction, { id: transactionId })]))[0];
}

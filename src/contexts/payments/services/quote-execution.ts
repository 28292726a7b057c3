import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Quote, Transaction } from '../entities';
import { InternalAccount } from '../../ledger/entities';
import { ExternalAccount } from '../../external-accounts/entities';
import { Platform } from '../../platforms/entities';
import { assertCustomerMayMoveMoney } from '../../customers/services/money-movement-policy';
import { assertExternalAccountUsable } from '../../external-accounts/domain/account-usage';
import { primaryIdentifier } from '../../external-accounts/domain/account-identity';
import { holdFunds, receiveFunding } from '../../ledger/services/holds';
import { DomainError } from '../../../domain/errors';
import { executeAnswer } from '../domain/execution-attempts';
import { payoutPlan, type PayoutPlan } from '../domain/payout-scenarios';
import { pullPlan, type PullPlan } from '../domain/pull-scenarios';
import { assertPaidBySendingFunds } from '../domain/quote-funding';
import { valueIn } from '../domain/pricing/value-in';
import { creditedAccountOf, destinationAccount, pullSourceIdOf, recordEvents, sourceAccountOf, type RecordedEvent } from './outgoing-payments';

/** What the quote's workflow needs to run the payment (JSON-safe: it is an activity result). */
export interface Execution {
  /** True when the quote had been executed before (a retried step, or a later execute call). */
  alreadyExecuted: boolean;
  transactionId: string;
  plan: PayoutPlan;
  /** For a pull-funded quote: what the bank does with the pull. */
  pull?: PullPlan;
  events: RecordedEvent[];
}

/**
 * Executes a quote in ONE database transaction: the gates (the quote is PENDING and not expired,
 * the customer may move money, the destination may be used, the funds are there), the hold on
 * the source, and the transaction and quote moving to PROCESSING with their webhook events. A
 * refusal changes nothing. A repeat of an execution that happened returns it unchanged.
 */
export async function executeQuote(em: EntityManager, input: { quoteId: string }): Promise<Execution> {
  return em.transactional(async (tx) => {
    const quote = await tx.findOneOrFail(Quote, { id: input.quoteId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const payment = await tx.findOneOrFail(Transaction, { id: quote.transactionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const destination = await destinationAccount(tx, quote);
    const plan = payoutPlan(quote.environment, destination ? primaryIdentifier(destination.accountInfo) : '');
    const pullFrom = await pullSourceAccount(tx, quote);
    const pull = pullFrom ? await pullPlanOf(tx, quote, pullFrom) : undefined;
    const executed = (events: RecordedEvent[], alreadyExecuted: boolean): Execution => ({ alreadyExecuted, transactionId: payment.id, plan, ...(pull ? { pull } : {}), events });
    // Executed before: the same answer, and the same (already recorded) events, so that a step
    // retried after its commit still starts the payment and delivers them.
    if (quote.executedAt) return executed(await recordEvents(tx, quote, payment, ['PROCESSING'], { balanceOf: [sourceAccountOf(quote)] }), true);
    if (quote.status === 'EXPIRED' || quote.expiresAt.getTime() <= Date.now()) throw new DomainError('QUOTE_EXPIRED', 'The quote has expired; request a new quote');
    if (quote.status !== 'PENDING') throw new DomainError('CONFLICT', `The quote is ${quote.status} and cannot be executed`);
    const payer = sourceAccountOf(quote);
    if (!payer && !pullFrom) throw new DomainError('CONFLICT', 'A real-time-funded quote is executed by the arrival of its funds, not by this call');
    if (quote.customerId) await assertCustomerMayMoveMoney(tx, quote.platformId, quote.customerId, { lock: true });
    const platform = await tx.findOneOrFail(Platform, { id: quote.platformId });
    if (destination) assertExternalAccountUsable(destination, { platformRegion: platform.region, amountEurCents: valueIn('EUR', quote.sendingCurrency, quote.totalSendingAmount) });
    if (payer) {
      // Every execution path (quotes, /transfer-out) meets this: no wallet pays without its owner's signature.
      if ((await tx.findOne(InternalAccount, { id: payer }))?.type === 'EMBEDDED_WALLET') {
        throw new DomainError('NOT_IMPLEMENTED', 'Wallet signatures cannot be verified yet: embedded-wallet sources cannot be executed in this version');
      }
      await holdFunds(tx, { platformId: quote.platformId, transactionId: payment.id, accountId: payer, currency: quote.sendingCurrency, amount: quote.totalSendingAmount });
    } else {
      assertExternalAccountUsable(pullFrom!, { platformRegion: platform.region, field: 'source.accountId' });
      // A pull the bank honours at once is booked now, where a hold would have put the money;
      // one that fails (or stays pending) leaves the ledger untouched until the bank answers.
      if (pull!.outcome === 'COLLECTED') await receiveFunding(tx, { platformId: quote.platformId, transactionId: payment.id, currency: quote.sendingCurrency, amount: quote.totalSendingAmount });
    }
    return executed((await startProcessing(tx, quote, payment)).events, false);
  });
}

async function startProcessing(em: EntityManager, quote: Quote, payment: Transaction): Promise<{ events: RecordedEvent[] }> {
  const now = new Date();
  quote.status = 'PROCESSING';
  quote.executedAt = now;
  quote.updatedAt = now;
  payment.status = 'PROCESSING';
  payment.updatedAt = now;
  await em.flush();
  return { events: await recordEvents(em, quote, payment, ['PROCESSING'], { balanceOf: [sourceAccountOf(quote)] }) };
}

async function pullSourceAccount(em: EntityManager, quote: Quote): Promise<ExternalAccount | null> {
  const id = pullSourceIdOf(quote);
  return id ? em.findOne(ExternalAccount, { id, platformId: quote.platformId }) : null;
}

/** The simulated bank's answer to a pull; a 009 return is not simulated for credits to an embedded wallet. */
async function pullPlanOf(em: EntityManager, quote: Quote, pullFrom: ExternalAccount): Promise<PullPlan> {
  const credited = creditedAccountOf(quote);
  const wallet = credited ? (await em.findOne(InternalAccount, { id: credited }))?.type === 'EMBEDDED_WALLET' : false;
  return pullPlan(quote.environment, primaryIdentifier(pullFrom.accountInfo), { returnable: !!credited && !wallet });
}

/**
 * The funds of a real-time-funded quote arrived (in the sandbox: POST /sandbox/send): in ONE
 * database transaction they are booked to PENDING_OUTGOING and the payment moves to PROCESSING,
 * exactly as an executed quote's hold. The amount must be the quote's totalSendingAmount.
 */
export async function fundQuote(em: EntityManager, input: { quoteId: string; amount: string }): Promise<Execution> {
  return em.transactional(async (tx) => {
    const quote = await tx.findOneOrFail(Quote, { id: input.quoteId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const payment = await tx.findOneOrFail(Transaction, { id: quote.transactionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const destination = await destinationAccount(tx, quote);
    const plan = payoutPlan(quote.environment, destination ? primaryIdentifier(destination.accountInfo) : '');
    assertPaidBySendingFunds(quote);
    if (quote.executedAt) return { alreadyExecuted: true, transactionId: payment.id, plan, events: await recordEvents(tx, quote, payment, ['PROCESSING']) };
    if (quote.status === 'EXPIRED' || quote.expiresAt.getTime() <= Date.now()) throw new DomainError('QUOTE_EXPIRED', 'The quote has expired; request a new quote');
    if (quote.status !== 'PENDING') throw new DomainError('CONFLICT', `The quote is ${quote.status}`);
    if (BigInt(input.amount) !== quote.totalSendingAmount) {
      throw DomainError.invalidInput([{ field: 'currencyAmount', constraint: 'quoteAmount', message: `must be the quote's totalSendingAmount, ${quote.totalSendingAmount}` }]);
    }
    if (quote.customerId) await assertCustomerMayMoveMoney(tx, quote.platformId, quote.customerId, { lock: true });
    await receiveFunding(tx, { platformId: quote.platformId, transactionId: payment.id, currency: quote.sendingCurrency, amount: quote.totalSendingAmount });
    return { alreadyExecuted: false, transactionId: payment.id, plan, events: (await startProcessing(tx, quote, payment)).events };
  });
}

/**
 * One attempt of POST /quotes/{quoteId}/execute, run under the quote's lease: records the
 * attempt's key on the quote, has the quote executed (`execute`: the route asks the quote's
 * workflow) and answers with the quote as it is then, or refuses 409 CONFLICT when another
 * request executed it.
 */
export async function attemptQuoteExecution(
  em: EntityManager,
  input: { quoteId: string; attemptKey: string; execute: (quote: Quote) => Promise<{ repeat?: boolean }> },
): Promise<Quote> {
  const fresh = () => em.fork().findOneOrFail(Quote, { id: input.quoteId });
  const answer = (quote: Quote, repeat: boolean): Quote => {
    if (executeAnswer({ key: input.attemptKey, repeat }, quote.executionKey) === 'EXECUTED') return quote;
    throw new DomainError('CONFLICT', 'The quote has already been executed', { transactionId: quote.transactionId });
  };
  const quote = await fresh();
  if (quote.executedAt) return answer(quote, true);
  await em.fork().nativeUpdate(Quote, { id: quote.id, executedAt: null }, { executionKey: input.attemptKey });
  const { repeat } = await input.execute(quote);
  // Read again: the execution has moved it on.
  return answer(await fresh(), repeat === true);
}

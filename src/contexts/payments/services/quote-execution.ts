import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Quote, Transaction } from '../entities';
import { InternalAccount, holdFunds, receiveFunding } from '../../ledger';
import { ExternalAccount, primaryIdentifier } from '../../external-accounts';
import { Platform } from '../../platforms';
import { Customer } from '../../customers';
import { heldWhole, readJoined } from '../../../db/joined-rows';
import { DomainError } from '../../../domain/errors';
import type { ExecutionGate, ExecutionSubject, GateEvent, GateHold } from '../../../domain/execution-gate-contract';
import { payoutPlan, type PayoutPlan } from '../domain/payout-scenarios';
import { pullPlan, type PullPlan } from '../domain/pull-scenarios';
import { assertPaidBySendingFunds } from '../domain/quote-funding';
import { isOnChainNetwork, simulatedOnChainTransaction } from '../domain/on-chain-transactions';
import { valueIn } from '../domain/pricing/value-in';
import { assertTransition } from '../domain/transaction-state';
import {
  creditedAccountOf,
  destinationAccount,
  eventsRecordedBefore,
  pullSourceIdOf,
  recordEvents,
  sourceAccountOf,
  type RecordedEvent,
} from './outgoing-payments';

/** What the payment's workflow needs to run the payment (JSON-safe: it is an activity result). */
export interface Execution {
  /** True when the quote had been executed before (a retried step, or a later execute call). */
  alreadyExecuted: boolean;
  /**
   * Whether this call is a repeat of another request's execution: executed before under another
   * request key (and always, for a call that brings no key). The execute route answers it 409.
   */
  repeat: boolean;
  /** True when the payment had already ended (settled, failed or returned): nothing is left to run or announce. */
  ended: boolean;
  /** The key of the request that executed the quote (none for funds that arrived, or executions of older versions). */
  executedBy: string | null;
  transactionId: string;
  plan: PayoutPlan;
  /** For a pull-funded quote: what the bank does with the pull. */
  pull?: PullPlan;
  events: RecordedEvent[];
}

/** An execution a gate holds: nothing moved; the payment waits for the hold's decision or its expiry. */
export interface HeldExecution {
  transactionId: string;
  /**
   * expiresAt: when the hold lapses, stamped when it was taken (the workflow waits expiresInSeconds).
   * events: the hold's webhook (OUTGOING_PAYMENT.PENDING_AUTHORIZATION), recorded with it; absent
   * from holds taken before holds were announced.
   */
  held: GateHold & { gate: string; expiresAt: string; events?: RecordedEvent[] };
}

export type ExecutionStep = Execution | HeldExecution;

export const isHeld = (step: ExecutionStep): step is HeldExecution => 'held' in step;

export interface ExecuteQuoteInput {
  quoteId: string;
  /** The request's key (its Idempotency-Key, or one made for it): recorded with the execution, so a retry of that request is told from another one. */
  requestKey?: string;
  /** Gates whose hold was approved: they pass this time. */
  approved?: string[];
}

/**
 * Executes a quote in ONE database transaction: the quote is PENDING and not expired, every
 * execution gate passes (customer policy, usable accounts, the wallet's signature, …, in their
 * registered order), the source's funds are held, and the transaction and quote move to
 * PROCESSING with their webhook events. A refusal changes nothing; a hold moves the quote and its
 * transaction to the hold's status and nothing else. A repeat of an execution that happened
 * returns it unchanged.
 */
export async function runExecutionStep(em: EntityManager, input: ExecuteQuoteInput, gates: readonly ExecutionGate[]): Promise<ExecutionStep> {
  return em.transactional(async (tx) => {
    const { quote, payment, platform } = await lockedForExecution(tx, input.quoteId);
    const destination = heldExternalAccount(tx, quote, quote.destination.accountId);
    const plan = payoutPlan(quote.environment, destination ? primaryIdentifier(destination.accountInfo) : '');
    const pullFrom = heldExternalAccount(tx, quote, pullSourceIdOf(quote));
    const pull = pullFrom ? await pullPlanOf(tx, quote, pullFrom) : undefined;
    const payer = sourceAccountOf(quote);
    const executed = (events: RecordedEvent[], alreadyExecuted: boolean): Execution => ({
      alreadyExecuted,
      repeat: alreadyExecuted && (input.requestKey === undefined || quote.executionKey !== input.requestKey),
      ended: alreadyExecuted && payment.status !== 'PROCESSING',
      executedBy: alreadyExecuted ? (quote.executionKey ?? null) : (input.requestKey ?? null),
      transactionId: payment.id,
      plan,
      ...(pull ? { pull } : {}),
      events,
    });
    // Executed before: the same answer, and the same (already recorded) events while the payment
    // runs, so that a step retried after its commit still runs the payment and announces it.
    if (quote.executedAt) {
      if (payment.status !== 'PROCESSING') return executed([], true);
      const pending = await eventsRecordedBefore(tx, payment, { statuses: ['PENDING'] });
      return executed([...pending, ...(await recordEvents(tx, quote, payment, ['PROCESSING'], { balanceOf: [payer] }))], true);
    }
    const held = quote.status === 'PENDING_AUTHORIZATION' || !!quote.heldBy;
    const resuming = (input.approved ?? []).length > 0 && held;
    if (quote.status === 'EXPIRED' || (!resuming && quote.expiresAt.getTime() <= Date.now()))
      throw new DomainError('QUOTE_EXPIRED', 'The quote has expired; request a new quote');
    if (quote.status === 'PENDING_AUTHORIZATION' && !resuming)
      throw new DomainError('CONFLICT', 'The quote is waiting for its authorization; it is executed once authorized');
    if (held && !resuming) throw new DomainError('CONFLICT', 'The quote is waiting for a decision on its execution; it is executed once approved');
    if (quote.status !== 'PENDING' && !resuming) throw new DomainError('CONFLICT', `The quote is ${quote.status} and cannot be executed`);
    if (!payer && !pullFrom) throw new DomainError('CONFLICT', 'A real-time-funded quote is executed by the arrival of its funds, not by this call');
    const subject = { ...subjectOf(quote, platform, 'EXECUTE', destination), customerRowLocked: true };
    const gateEvents: GateEvent[] = [];
    for (const gate of gates) {
      const verdict = await gate.check(tx, subject, { approved: (input.approved ?? []).includes(gate.name) });
      if ('pass' in verdict) gateEvents.push(...(verdict.events ?? []));
      // Events of the gates passed before the hold are the workflow's to deliver too (an agent action's APPROVED).
      if ('hold' in verdict)
        return hold(tx, quote, payment, {
          gate: gate.name,
          ...verdict.hold,
          events: [...gateEvents, ...(verdict.hold.events ?? [])],
          expiresAt: new Date(Date.now() + verdict.hold.expiresInSeconds * 1000).toISOString(),
        });
    }
    if (payer) {
      await holdFunds(tx, {
        platformId: quote.platformId,
        transactionId: payment.id,
        accountId: payer,
        currency: quote.sendingCurrency,
        amount: quote.totalSendingAmount,
      });
    } else if (pull!.outcome === 'COLLECTED') {
      // A pull the bank honours at once is booked now, where a hold would have put the money;
      // one that fails (or stays pending) leaves the ledger untouched until the bank answers.
      await receiveFunding(tx, { platformId: quote.platformId, transactionId: payment.id, currency: quote.sendingCurrency, amount: quote.totalSendingAmount });
    }
    quote.executionKey = input.requestKey ?? null;
    return executed([...(await startProcessing(tx, quote, payment)).events, ...gateEvents], false);
  });
}

function subjectOf(quote: Quote, platform: Platform, trigger: ExecutionSubject['trigger'], external: ExternalAccount | null): ExecutionSubject {
  const payer = sourceAccountOf(quote);
  const pullFrom = pullSourceIdOf(quote);
  const destination = quote.destination.accountId;
  return {
    payee: String(quote.destination.umaAddress ?? destination),
    ...(external?.trusted ? { destinationTrusted: true } : {}),
    ...(quote.scaFactor ? { scaFactor: quote.scaFactor } : {}),
    quoteId: quote.id,
    transactionId: quote.transactionId,
    platformId: quote.platformId,
    platformRegion: platform.region,
    environment: quote.environment,
    customerId: quote.customerId ?? null,
    ...(quote.agentId ? { agentId: quote.agentId } : {}),
    quoteExpiresAt: quote.expiresAt,
    trigger,
    ...(payer ? { payerAccountId: payer } : {}),
    ...(pullFrom ? { pullAccountId: pullFrom } : {}),
    ...(typeof destination === 'string' && destination.startsWith('ExternalAccount:') ? { destinationAccountId: destination } : {}),
    sendingCurrency: quote.sendingCurrency,
    totalSendingAmount: quote.totalSendingAmount,
    ...eurValue(valueIn('EUR', quote.sendingCurrency, quote.totalSendingAmount)),
    description: quote.description ?? null,
  };
}

const eurValue = (cents: bigint | undefined) => (cents === undefined ? {} : { amountEurCents: cents });

/**
 * A gate held the execution: the quote and its transaction show the hold's status until its
 * decision, and the platform is told (OUTGOING_PAYMENT.PENDING_AUTHORIZATION, recorded in the same
 * database transaction; a payment held again records it once).
 */
async function hold(em: EntityManager, quote: Quote, payment: Transaction, held: HeldExecution['held']): Promise<HeldExecution> {
  if (payment.status !== held.status) assertTransition(payment.status, held.status);
  const wasPending = payment.status === 'PENDING';
  const now = new Date();
  quote.status = held.status;
  quote.heldBy = held.gate;
  quote.updatedAt = now;
  payment.status = held.status;
  payment.updatedAt = now;
  await em.flush();
  // The reference announces an outgoing payment's PENDING_AUTHORIZATION (once per payment: the
  // event id derives from the transaction and type), after its PENDING the first time it is held;
  // a payment left PENDING has nothing new to say (its PENDING comes with its execution).
  const announced = payment.type === 'OUTGOING' && held.status === 'PENDING_AUTHORIZATION';
  const statuses = wasPending ? ['PENDING', held.status] : [held.status];
  const events = [...(announced ? await recordEvents(em, quote, payment, statuses) : []), ...(held.events ?? [])];
  return { transactionId: payment.id, held: { ...held, events } };
}

/**
 * A held execution (or a quote waiting for its authorization) ends without moving money:
 * REJECTED (the hold's decision was no) fails the quote and its transaction, with the given
 * failureReason (QUOTE_EXECUTION_FAILED unless told: SCA_NOT_COMPLETED for a lapsed challenge),
 * EXPIRED (nobody decided in time) expires them. Each with its webhook; a repeat finds it done
 * and answers the events it recorded. `ended` is false when the quote was waiting for nothing.
 * `executedAlready`: the hold's approval executed the quote (its payment runs) in a workflow task
 * the workflow never received, as `expireQuote` reports it; the workflow carries the payment on.
 */
export async function endHeldExecution(
  em: EntityManager,
  input: EndHeldExecutionInput,
  gates: readonly ExecutionGate[] = [],
): Promise<{ events: RecordedEvent[]; ended: boolean; executedAlready?: { requestKey?: string } }> {
  return em.transactional(async (tx) => {
    const quote = await tx.findOneOrFail(Quote, { id: input.quoteId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const payment = await tx.findOneOrFail(Transaction, { id: quote.transactionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (quote.executedAt && payment.status === 'PROCESSING')
      return { events: [], ended: false, executedAlready: quote.executionKey ? { requestKey: quote.executionKey } : {} };
    const status = input.outcome === 'REJECTED' ? 'FAILED' : 'EXPIRED';
    const heldBy = quote.heldBy ?? input.gate ?? '';
    if (quote.status !== 'PENDING_AUTHORIZATION' && !quote.heldBy) {
      const done = quote.status === status && !quote.executedAt;
      return { events: done ? await eventsRecordedBefore(tx, payment, { statuses: [status] }) : [], ended: done };
    }
    assertTransition(payment.status, status);
    const now = new Date();
    quote.status = status;
    quote.heldBy = null;
    quote.updatedAt = now;
    payment.status = status;
    payment.failureReason = input.outcome === 'REJECTED' ? (input.failureReason ?? 'QUOTE_EXECUTION_FAILED') : 'QUOTE_EXPIRED';
    payment.updatedAt = now;
    await tx.flush();
    const gateEvents: GateEvent[] = [];
    for (const gate of gates) {
      if (!gate.holdEnded) continue;
      gateEvents.push(
        ...(await gate.holdEnded(tx, {
          heldBy,
          quoteId: quote.id,
          transactionId: payment.id,
          outcome: input.outcome === 'EXPIRED' ? 'EXPIRED' : input.failed ? 'FAILED' : 'REJECTED',
          ...(input.reason ? { reason: input.reason } : {}),
        })),
      );
    }
    return { events: [...(await recordEvents(tx, quote, payment, [status])), ...gateEvents], ended: true };
  });
}

export interface EndHeldExecutionInput {
  quoteId: string;
  outcome: 'REJECTED' | 'EXPIRED';
  failureReason?: string;
  /** The gate that held it, as the workflow knows it (the quote names it too, since holds were named there). */
  gate?: string;
  /** The decider's reason for a rejection, handed to the holding gate. */
  reason?: string;
  /** The rejection ends an approval whose execution was refused: the gate sees FAILED. */
  failed?: boolean;
}

/**
 * Everything an execution reads, in ONE statement: the quote and its transaction (locked), the
 * paying customer (locked too: the money-movement policy is judged on the row as it stays until
 * the commit), the platform, and the accounts the quote names. Each lands in the unit of work, so
 * the gates, the hold and the events find them without asking the database again.
 */
async function lockedForExecution(em: EntityManager, quoteId: string): Promise<{ quote: Quote; payment: Transaction; platform: Platform }> {
  const rows = await readJoined(
    em,
    { q: Quote, t: Transaction, p: Platform, c: Customer, src: InternalAccount, dst: InternalAccount, xs: ExternalAccount, xd: ExternalAccount },
    `from quotes q join transactions t on t.id = q.transaction_id join platforms p on p.id = q.platform_id
       left join lateral (select * from customers where customers.id = q.customer_id for update) c on true
       left join internal_accounts src on src.id = q.source->>'accountId'
       left join internal_accounts dst on dst.id = q.destination->>'accountId'
       left join external_accounts xs on xs.id = q.source->>'accountId'
       left join external_accounts xd on xd.id = q.destination->>'accountId'
     where q.id = ? for update of q, t`,
    [quoteId],
  );
  // A quote withdrawn after its request's refusal: refused, not retried for ever.
  if (!rows) throw DomainError.notFound('Quote');
  return { quote: rows.q!, payment: rows.t!, platform: rows.p! };
}

/** An external account the quote names, as the execution's read left it; one of another platform is none. Deleted ones count: a payment keeps the account it was quoted to. */
function heldExternalAccount(em: EntityManager, quote: Quote, id: unknown): ExternalAccount | null {
  if (typeof id !== 'string' || !id.startsWith('ExternalAccount:')) return null;
  const account = heldWhole(em, ExternalAccount, id);
  return account?.platformId === quote.platformId ? account : null;
}

/** The quote and its transaction move to PROCESSING in ONE statement (a flush would send one per table). */
async function startProcessing(em: EntityManager, quote: Quote, payment: Transaction): Promise<{ events: RecordedEvent[] }> {
  // OUTGOING_PAYMENT.PENDING is announced once the payment is accepted, with its PROCESSING (a
  // refused one-request transfer leaves nothing a partner saw); a payment held for authorization announced it with its hold.
  const announcePending = payment.type === 'OUTGOING' && payment.status === 'PENDING';
  const now = new Date();
  quote.status = 'PROCESSING';
  quote.executedAt = now;
  quote.heldBy = null;
  quote.updatedAt = now;
  payment.status = 'PROCESSING';
  payment.updatedAt = now;
  await em.getConnection().execute(
    `with quote as (update quotes set status = ?, executed_at = ?, execution_key = ?, held_by = null, updated_at = ? where id = ?)
     update transactions set status = ?, source = ?, updated_at = ? where id = ?`,
    [quote.status, now, quote.executionKey ?? null, now, quote.id, payment.status, JSON.stringify(payment.source), now, payment.id],
    'run',
    em.getTransactionContext(),
  );
  em.getUnitOfWork().merge(quote);
  em.getUnitOfWork().merge(payment);
  return { events: await recordEvents(em, quote, payment, [...(announcePending ? ['PENDING'] : []), 'PROCESSING'], { balanceOf: [sourceAccountOf(quote)] }) };
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
 * exactly as an executed quote's hold. The amount must be the quote's totalSendingAmount. Every
 * arrival of funds answers with the one payment: a repeat is no refusal here.
 */
export async function fundQuote(em: EntityManager, input: { quoteId: string; amount: string }, gates: readonly ExecutionGate[]): Promise<Execution> {
  return em.transactional(async (tx) => {
    const quote = await tx.findOneOrFail(Quote, { id: input.quoteId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const payment = await tx.findOneOrFail(Transaction, { id: quote.transactionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const destination = await destinationAccount(tx, quote);
    const plan = payoutPlan(quote.environment, destination ? primaryIdentifier(destination.accountInfo) : '');
    assertPaidBySendingFunds(quote);
    const funded = (events: RecordedEvent[], alreadyExecuted: boolean): Execution => ({
      alreadyExecuted,
      repeat: alreadyExecuted,
      ended: alreadyExecuted && payment.status !== 'PROCESSING',
      executedBy: null,
      transactionId: payment.id,
      plan,
      events,
    });
    if (quote.executedAt)
      return funded(
        payment.status === 'PROCESSING'
          ? [...(await eventsRecordedBefore(tx, payment, { statuses: ['PENDING'] })), ...(await recordEvents(tx, quote, payment, ['PROCESSING']))]
          : [],
        true,
      );
    if (quote.status === 'EXPIRED' || quote.expiresAt.getTime() <= Date.now())
      throw new DomainError('QUOTE_EXPIRED', 'The quote has expired; request a new quote');
    if (quote.status !== 'PENDING') throw new DomainError('CONFLICT', `The quote is ${quote.status}`);
    if (BigInt(input.amount) !== quote.totalSendingAmount) {
      throw DomainError.invalidInput([
        { field: 'currencyAmount', constraint: 'quoteAmount', message: `must be the quote's totalSendingAmount, ${quote.totalSendingAmount}` },
      ]);
    }
    const subject = subjectOf(quote, await tx.findOneOrFail(Platform, { id: quote.platformId }), 'FUNDS_ARRIVED', null);
    for (const gate of gates) {
      // The money is in: a gate may refuse it (it goes back), never hold it. Holds on real-time
      // funding belong before the payment instructions are given.
      // A gate that holds them is a programming error: failed at once, not retried for ever.
      if ('hold' in (await gate.check(tx, subject, { approved: false })))
        throw DomainError.internal(`Execution gate ${gate.name} held arrived funds; it may only pass or refuse them`);
    }
    await receiveFunding(tx, { platformId: quote.platformId, transactionId: payment.id, currency: quote.sendingCurrency, amount: quote.totalSendingAmount });
    // Funds sent on a chain arrived: the transfer that brought them settled, and its hash is known from now on.
    if (isOnChainNetwork(quote.source.cryptoNetwork))
      payment.source = { ...payment.source, onChainTransaction: simulatedOnChainTransaction(quote.source.cryptoNetwork, payment.id, 'source') };
    return funded((await startProcessing(tx, quote, payment)).events, false);
  });
}

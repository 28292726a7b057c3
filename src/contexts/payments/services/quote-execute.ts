import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { PaymentExecution } from '../../../../workflows/payments/definitions';
import { SCA_AUTHORIZATION_GATE, startScaChallenge, type ChallengeKind, type ScaCodeSender } from '../../sca';
import type { SignedCall, SignedRequestChallenge } from '../../wallet-auth';
import { DomainError, type ErrorCode } from '../../../domain/errors';
import { confirmExecution, executeThroughPaymentWorkflow } from '../starters/payment';
import { isPending, type QuoteChallenge } from '../domain/quote-challenge';
import { Quote } from '../entities';
import { challengeQuote, type ChallengeDeps } from './quote-authorization';
import { quoteView } from './quotes';
import { challengeWorkflowInput, workflowInput } from './quote-workflow-input';
import { executeFromWallet, walletSourceOf } from './wallet-execution';

/**
 * The one execute use case: every request that executes a quote (POST /quotes/{id}/execute, an
 * agent's execute, the quotes a request creates and executes at once: immediatelyExecute, the
 * transfers and the agents' transfers) goes through executeQuoteForRequest, and every answer to a
 * gate's hold (an SCA challenge issued to the customer) through answerHold.
 */

/** What executing needs of the service: the engine, and what issuing an SCA challenge needs (the API's dependencies fit as they are). */
export interface ExecutionDeps {
  temporal: Client;
  taskQueue?: string;
  config: { masterKey: Buffer };
  scaCodeSender?: ScaCodeSender;
  scaChallengeTtlMs?: number;
}

/** What issuing an SCA challenge needs of the execution's dependencies. */
export function challengeDeps(deps: ExecutionDeps): ChallengeDeps {
  return {
    masterKey: deps.config.masterKey,
    ...(deps.scaCodeSender ? { sender: deps.scaCodeSender } : {}),
    ...(deps.scaChallengeTtlMs ? { ttlMs: deps.scaChallengeTtlMs } : {}),
  };
}

/** Starts the workflow of a challenge the quote carries (recorded first; the stranded sweep starts it if this fails). */
export async function startChallengeWorkflow(deps: ExecutionDeps, q: Quote, challenge: QuoteChallenge): Promise<void> {
  await startScaChallenge(deps.temporal, challengeWorkflowInput(q, challenge), deps.taskQueue ? { taskQueue: deps.taskQueue } : {});
}

/**
 * The quote's challenge, issued now if it carries none (recorded first), and its workflow
 * started (or joined; the stranded sweep starts it if this process dies first).
 */
export async function issueChallenge(em: EntityManager, deps: ExecutionDeps, q: Quote, kind: ChallengeKind): Promise<QuoteChallenge> {
  const issued = await challengeQuote(em, q.id, kind, challengeDeps(deps));
  if (isPending(issued)) await startChallengeWorkflow(deps, q, issued);
  return issued;
}

/**
 * The one answer to a gate's hold, after any call that executed or approved a payment (an
 * execution, an agent's action approved, a transaction approved): a quote the SCA gate holds gets
 * its customer's challenge (issued unless one is pending, its workflow started). Nothing for a
 * quote held otherwise or not at all.
 */
export async function answerHold(em: EntityManager, deps: ExecutionDeps, quoteId: string): Promise<QuoteChallenge | undefined> {
  const q = await em.fork().findOneOrFail(Quote, { id: quoteId });
  if (q.status !== 'PENDING_AUTHORIZATION' || q.heldBy !== SCA_AUTHORIZATION_GATE) return undefined;
  return issueChallenge(em, deps, q, 'HELD_EXECUTION');
}

/** A request's execution: the quote as the request found it, and the hold (with the SCA challenge that holds it) when a gate holds the payment. */
export interface QuoteExecuted {
  quote: Quote;
  held?: PaymentExecution['held'];
  scaChallenge?: QuoteChallenge;
}

/** An execution from an embedded wallet without its owner's signature: the signed request to answer (202). */
export interface SignatureRequired {
  signatureRequired: SignedRequestChallenge;
}

export interface ExecuteRequest {
  quote: Quote;
  /** The request's key (executionRequestKey): a retry of the request is the same request. */
  requestKey: string;
  /** The request's wallet signature headers as a call of the quote's paying wallet; absent for callers that cannot sign (an agent). */
  signedCall?: (walletAccountId: string) => SignedCall;
}

function alreadyExecuted(q: Quote): DomainError {
  return new DomainError('CONFLICT', 'The quote has already been executed', { transactionId: q.transactionId });
}

/**
 * Executes the quote for one request, through its payment's workflow. A retry of the request
 * that finds the quote executed by it, or an engine error after which the quote turns out to be
 * executed by it, sends the same update again (confirmExecution) before answering: the execution
 * step runs in the workflow task that answers the update, and a task the server loses takes the
 * update with it while the step's commit stands; without it the payment would wait for the quote's
 * expiry. Another request's execution is 409. A gate's hold is answered (answerHold).
 */
export async function executeQuoteForRequest(em: EntityManager, deps: ExecutionDeps, request: ExecuteRequest): Promise<QuoteExecuted | SignatureRequired> {
  const { quote, requestKey } = request;
  const wallet = request.signedCall ? await walletSourceOf(em, quote) : null;
  const call = wallet && request.signedCall ? request.signedCall(wallet.id) : undefined;
  // A signed retry goes to its request first: replayed after it was used, it is refused, not answered as executed.
  if (call && call.requestId !== undefined) return fromWallet(em, deps, quote, call, requestKey);
  // Executed before: the quote records by which request. Its own retry makes sure the workflow has it.
  if (quote.executedAt) return confirmed(deps, quote, requestKey);
  if (call) return fromWallet(em, deps, quote, call, requestKey);
  let executed: PaymentExecution;
  try {
    executed = await executeThroughPaymentWorkflow(deps.temporal, workflowInput(quote), {
      requestKey,
      ...(deps.taskQueue ? { taskQueue: deps.taskQueue } : {}),
    });
  } catch (err) {
    // Not a refusal (an engine error: under a burst, a run can close before it answered every
    // update): the quote says whether, and by which request, it was executed.
    if (err instanceof DomainError) throw err;
    const now = await em.fork().findOneOrFail(Quote, { id: quote.id });
    if (!now.executedAt) throw err;
    return confirmed(deps, now, requestKey);
  }
  return answered(em, deps, quote, executed);
}

/** The quote is executed: by this request (the workflow is told again: it may have lost the update), or by another one (409). */
async function confirmed(deps: ExecutionDeps, quote: Quote, requestKey: string): Promise<QuoteExecuted> {
  if (quote.executionKey !== requestKey) throw alreadyExecuted(quote);
  await confirmExecution(deps.temporal, quote.transactionId, requestKey);
  return { quote };
}

/** The execution's answer: a repeat of another request's is 409; a hold is answered. */
async function answered(em: EntityManager, deps: ExecutionDeps, quote: Quote, executed: PaymentExecution): Promise<QuoteExecuted> {
  if (executed.repeat) throw alreadyExecuted(quote);
  const scaChallenge = executed.held ? await answerHold(em, deps, quote.id) : undefined;
  return { quote, ...(executed.held ? { held: executed.held } : {}), ...(scaChallenge ? { scaChallenge } : {}) };
}

/** An execution from an embedded wallet: executed (the wallet's owner signed; a later gate may still hold it) or held for its signature. */
async function fromWallet(em: EntityManager, deps: ExecutionDeps, quote: Quote, call: SignedCall, requestKey: string) {
  const outcome = await executeFromWallet(
    em,
    { temporal: deps.temporal, ...(deps.taskQueue ? { taskQueue: deps.taskQueue } : {}) },
    { quote, call, requestKey },
  );
  if ('challenge' in outcome) return { signatureRequired: outcome.challenge };
  return answered(em, deps, quote, outcome.executed);
}

/** Codes that say nothing was refused (the service or the engine failed): the quote is kept for the request's retry. */
const NOT_REFUSALS: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['INTERNAL_ERROR', 'NOT_IMPLEMENTED', 'SERVICE_UNAVAILABLE']);

/**
 * Executes a quote the request itself created (immediatelyExecute, a transfer): a refusal
 * answers the request as if nothing had been asked, so the quote and its PENDING transaction,
 * which the partner was never shown, are withdrawn (a payment refused with 400 is nothing a
 * partner can list, and its workflow's timer finds nothing to expire or announce).
 */
export async function executeQuoteCreatedForRequest(
  em: EntityManager,
  deps: ExecutionDeps,
  request: Omit<ExecuteRequest, 'signedCall'>,
): Promise<QuoteExecuted> {
  try {
    return (await executeQuoteForRequest(em, deps, request)) as QuoteExecuted;
  } catch (err) {
    if (err instanceof DomainError && !NOT_REFUSALS.has(err.code)) await withdrawUnexecutedQuote(em, request.quote.id);
    throw err;
  }
}

/**
 * Deletes a quote and its transaction when the quote is still as it was made: PENDING, never
 * executed, held by nothing (its transaction PENDING, so nothing was booked or announced). Locked
 * as an execution locks them, so an execution and a withdrawal never both happen. True when withdrawn.
 */
export async function withdrawUnexecutedQuote(em: EntityManager, quoteId: string): Promise<boolean> {
  const deleted = await em
    .fork()
    .getConnection()
    .execute<{ id: string }[]>(
      `with q as (
       delete from quotes where id = (
         select q.id from quotes q join transactions t on t.id = q.transaction_id
          where q.id = ? and q.status = 'PENDING' and q.executed_at is null and q.held_by is null and t.status = 'PENDING'
          for update of q, t)
       returning transaction_id)
     delete from transactions where id in (select transaction_id from q) returning id`,
      [quoteId],
    );
  return deleted.length > 0;
}

/** The quote as its execution left it (PROCESSING, or held by a gate, with the SCA challenge that holds it): every answer to one request is the same. */
export function executedQuoteView({ quote, held, scaChallenge }: QuoteExecuted) {
  return quoteView(
    Object.assign(
      Object.create(Object.getPrototypeOf(quote) as object) as Quote,
      quote,
      { status: held?.status ?? 'PROCESSING' },
      scaChallenge ? { scaChallenge } : {},
    ),
  );
}

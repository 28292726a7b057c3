import type { EntityManager } from '@mikro-orm/postgresql';
import { Platform } from '../../platforms';
import { Quote, Transaction } from '../entities';
import { transactionViews } from '../services/transaction-views';
import type { ApiDeps } from '../../../api/context';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam, moneyMovementRefusals } from '../../../api/schemas/common';
import { DomainError } from '../../../domain/errors';
import { logger } from '../../../logger';
import { executionRequestKey } from '../domain/execution-attempts';
import { confirmExecution, executeQuote, startQuote } from '../../../temporal/starters/quote';
import { challengeWorkflowInput, workflowInput } from '../services/quote-workflow-input';
import { createQuote, quoteIds, quoteView, readQuoteRequestRows, type QuoteRequest } from '../services/quotes';
import { signedCallOf, SignedRequestChallengeSchema, WalletSignatureHeadersSchema } from '../../../api/wallet-signature';
import type { SignedCall } from '../../wallet-auth';
import { executeFromWallet, walletSourceOf } from '../services/wallet-execution';
import { QuoteRequestSchema, QuoteSchema } from './quote-schemas';
import { startScaChallenge } from '../../../temporal/starters/sca-challenge';
import { loadScaCustomer, SCA_AUTHORIZATION_GATE, type ChallengeKind } from '../../sca';
import { isPending, type QuoteChallenge } from '../domain/quote-challenge';
import { challengeQuote, type ChallengeDeps } from '../services/quote-authorization';

const TAGS = ['Cross-Currency Transfers'];

/** A quote of the caller's platform, or 404 QUOTE_NOT_FOUND. */
export async function findQuote(em: EntityManager, platformId: string, quoteId: string): Promise<Quote> {
  const q = await em.findOne(Quote, { id: quoteId, platformId });
  if (!q) throw DomainError.notFound('Quote');
  return q;
}

/** The transaction as it is now, read afresh (the payment's workflow may have moved it on). */
export async function currentTransactionView(em: EntityManager, transactionId: string) {
  return (await transactionViews(em, [await em.fork().findOneOrFail(Transaction, { id: transactionId })]))[0];
}

/** 409 CONFLICT unless the quote's customer is one of an SCA region (404 if it is gone). */
export async function assertScaCustomer(em: EntityManager, q: Quote): Promise<void> {
  if (!q.customerId) throw new DomainError('CONFLICT', "Strong Customer Authentication is not required: the quote is the platform's own");
  await loadScaCustomer(em, q.platformId, q.customerId);
}

/** What issuing an SCA challenge needs from the API's dependencies. */
export function challengeDeps(deps: ApiDeps): ChallengeDeps {
  return {
    masterKey: deps.config.masterKey,
    ...(deps.scaCodeSender ? { sender: deps.scaCodeSender } : {}),
    ...(deps.scaChallengeTtlMs ? { ttlMs: deps.scaChallengeTtlMs } : {}),
  };
}

/** Starts the workflow of a challenge the quote carries (recorded first; the stranded sweep starts it if this fails). */
export async function startChallengeWorkflow(deps: ApiDeps, q: Quote, challenge: QuoteChallenge): Promise<void> {
  await startScaChallenge(deps.temporal, challengeWorkflowInput(q, challenge), { taskQueue: deps.taskQueue });
}

/**
 * The quote's challenge, issued now if it carries none (recorded first), and its workflow
 * started (or joined; the stranded sweep starts it if this process dies first).
 */
async function challenge(em: EntityManager, deps: ApiDeps, q: Quote, kind: ChallengeKind): Promise<QuoteChallenge> {
  const issued = await challengeQuote(em, q.id, kind, challengeDeps(deps));
  if (isPending(issued)) await startChallengeWorkflow(deps, q, issued);
  return issued;
}

/**
 * The SCA challenge of a payment that a call other than POST /quotes/{id}/execute left waiting for
 * its customer (an agent's execution, a platform's approval after which the SCA gate held it):
 * issued if the quote is held by the SCA gate and carries none pending, its workflow started.
 * Nothing for a quote held otherwise or not at all.
 */
export async function challengeHeldExecution(em: EntityManager, deps: ApiDeps, quoteId: string): Promise<QuoteChallenge | undefined> {
  const q = await em.fork().findOneOrFail(Quote, { id: quoteId });
  if (q.status !== 'PENDING_AUTHORIZATION' || q.heldBy !== SCA_AUTHORIZATION_GATE) return undefined;
  return challenge(em, deps, q, 'HELD_EXECUTION');
}

async function execute(deps: ApiDeps, q: Quote, idempotencyKey: string | undefined) {
  return executeQuote(deps.temporal, workflowInput(q), { requestKey: executionRequestKey(idempotencyKey), taskQueue: deps.taskQueue });
}

/** The quote as its execution left it (PROCESSING, or held by a gate, with the SCA challenge that holds it): every answer to one request is the same. */
function executedQuoteView(q: Quote, held?: { status: Quote['status'] }, scaChallenge?: QuoteChallenge) {
  return quoteView(
    Object.assign(
      Object.create(Object.getPrototypeOf(q) as object) as Quote,
      q,
      { status: held?.status ?? 'PROCESSING' },
      scaChallenge ? { scaChallenge } : {},
    ),
  );
}

function alreadyExecuted(q: Quote): DomainError {
  return new DomainError('CONFLICT', 'The quote has already been executed', { transactionId: q.transactionId });
}

export const quoteRoutes = [
  defineRoute({
    method: 'post',
    path: '/quotes',
    permission: 'TRANSACT',
    operationId: 'createQuote',
    summary: 'Create a transfer quote',
    description: 'Lock a rate and fees to move money from a source to a destination',
    tags: TAGS,
    body: QuoteRequestSchema,
    idempotent: true,
    responses: {
      201: { description: 'The quote, PENDING until executed or expired', schema: QuoteSchema },
      202: {
        description:
          'SCA: a REALTIME_FUNDING quote of a customer of an SCA region, PENDING_AUTHORIZATION with its scaChallenge and without paymentInstructions until authorized (POST /quotes/{quoteId}/authorize)',
        schema: QuoteSchema,
      },
      400: {
        description:
          'INVALID_INPUT (lookupId missing, expired or of another receiver; mandatory senderCustomerInfo fields; source.cryptoNetwork missing for a stablecoin, given for fiat, or not carrying the currency), QUOTE_RATE_UNAVAILABLE, AMOUNT_OUT_OF_RANGE, TRANSACTION_SIZE_LIMIT_EXCEEDED, INVALID_CURRENCY, SELF_PAYMENT, INSUFFICIENT_FUNDS (immediatelyExecute), …',
        schema: errorResponses[400].schema,
      },
      401: errorResponses[401],
      404: { description: 'USER_NOT_FOUND (source.customerId), UMA_NOT_FOUND (the UMA receiver is gone)', schema: errorResponses[404].schema },
      409: { description: 'BANK_ACCOUNT_VALIDATION_PENDING: the destination is still being validated', schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, body, deps, idempotencyKey }) => {
      // One statement reads what the request names; the checks find it in memory.
      const platform =
        (await readQuoteRequestRows(
          em,
          caller.platformId,
          body as QuoteRequest,
          idempotencyKey ? quoteIds(caller.platformId, idempotencyKey).quoteId : null,
        )) ?? (await em.findOneOrFail(Platform, { id: caller.platformId }));
      const q = await createQuote(em, {
        platform,
        environment: caller.environment,
        request: body as QuoteRequest,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      });
      let held: Awaited<ReturnType<typeof execute>>['held'];
      if (body.immediatelyExecute) {
        held = (await execute(deps, q, idempotencyKey)).held;
      } else {
        try {
          await startQuote(deps.temporal, workflowInput(q), { taskQueue: deps.taskQueue });
        } catch (err) {
          // Recorded already; executing it starts its workflow, and an unexecuted one simply cannot be executed after expiresAt.
          logger.error({ err, quoteId: q.id }, 'could not start the quote workflow');
        }
      }
      // SCA: a real-time quote of a customer of an SCA region is answered 202 with its challenge and without payment instructions.
      if (q.status === 'PENDING_AUTHORIZATION') {
        await challenge(em, deps, q, 'QUOTE_FUNDING');
        return { status: 202, body: quoteView(await em.fork().findOneOrFail(Quote, { id: q.id })) };
      }
      if (held?.gate === SCA_AUTHORIZATION_GATE) await challenge(em, deps, q, 'HELD_EXECUTION');
      // Read again: an immediate execution has moved it on.
      return { status: 201, body: quoteView(body.immediatelyExecute ? await em.fork().findOneOrFail(Quote, { id: q.id }) : q) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/quotes/:quoteId',
    operationId: 'getQuoteById',
    summary: 'Get quote by ID',
    tags: TAGS,
    params: IdParam('quoteId'),
    responses: { 200: { description: 'The quote', schema: QuoteSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => {
      return { status: 200, body: quoteView(await findQuote(em, caller.platformId, params.quoteId)) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/quotes/:quoteId/execute',
    permission: 'TRANSACT',
    operationId: 'executeQuote',
    summary: 'Execute a quote',
    description:
      "Execute a quote: the funds are held and the payment starts. An EMBEDDED_WALLET source is executed with its owner's stamp over the quote's payloadToSign (Svc-Wallet-Signature); without one the payment is held and the call answered 202 with a signed request, whose signed retry (Svc-Wallet-Signature and Request-Id) executes it",
    tags: TAGS,
    params: IdParam('quoteId'),
    idempotent: 'workflow',
    headers: WalletSignatureHeadersSchema,
    responses: {
      200: {
        description:
          'The quote, PROCESSING once the funds are held (its transaction is transactionId); for a customer of an SCA region PENDING_AUTHORIZATION with its scaChallenge, released by POST /quotes/{quoteId}/authorize (a trusted beneficiary skips it)',
        schema: QuoteSchema,
      },
      202: {
        description:
          'EMBEDDED_WALLET source without Svc-Wallet-Signature: the payment is held (PENDING_AUTHORIZATION) until the signed retry of this request, or until expiresAt (then EXPIRED)',
        schema: SignedRequestChallengeSchema,
      },
      400: {
        description: 'QUOTE_EXPIRED, INSUFFICIENT_FUNDS, INVALID_BANK_ACCOUNT, EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
        schema: errorResponses[400].schema,
      },
      401: {
        description:
          'UNAUTHORIZED (also a Request-Id that is unknown, used or expired), or for an EMBEDDED_WALLET source: WALLET_SIGNATURE_MALFORMED, WALLET_SIGNATURE_INVALID (not a signature of the payload by an active session of the wallet), WALLET_SIGNATURE_BODY_MISMATCH (the retry differs from the first call), WALLET_SIGNATURE_MISSING (a Request-Id without a stamp)',
        schema: errorResponses[401].schema,
      },
      404: errorResponses[404],
      409: {
        description:
          'BANK_ACCOUNT_VALIDATION_PENDING, or CONFLICT when the quote has been executed already (details.transactionId names its transaction), can no longer be executed, or waits for its authorization (another request holds it)',
        schema: errorResponses[400].schema,
      },
      ...moneyMovementRefusals,
    },
    handler: async ({ em, caller, params, deps, req, idempotencyKey }) => {
      const found = await findQuote(em, caller.platformId, params.quoteId);
      const requestKey = executionRequestKey(idempotencyKey);
      const wallet = await walletSourceOf(em, found);
      // A signed retry goes to its request first: replayed after it was used, it is refused, not answered as executed.
      if (wallet && req.get('request-id') !== undefined) return walletExecution(em, deps, found, signedCallOf(req, caller, wallet.id), requestKey);
      // Executed before: the quote records by which request. Its own retry makes sure the workflow has it.
      if (found.executedAt) {
        if (found.executionKey !== requestKey) throw alreadyExecuted(found);
        await confirmExecution(deps.temporal, found.transactionId, requestKey);
        return { status: 200 as const, body: executedQuoteView(found) };
      }
      if (wallet) return walletExecution(em, deps, found, signedCallOf(req, caller, wallet.id), requestKey);
      let executed: Awaited<ReturnType<typeof executeQuote>>;
      try {
        executed = await executeQuote(deps.temporal, workflowInput(found), { requestKey, taskQueue: deps.taskQueue });
      } catch (err) {
        // Not a refusal (an engine error: under a burst, a run can close before it answered every
        // update): the quote says whether, and by which request, it was executed.
        if (err instanceof DomainError) throw err;
        const now = await em.fork().findOneOrFail(Quote, { id: found.id });
        if (!now.executedAt) throw err;
        if (now.executionKey !== requestKey) throw alreadyExecuted(now);
        // Executed by this request, but the update may have been lost with the task that executed it.
        await confirmExecution(deps.temporal, now.transactionId, requestKey);
        return { status: 200 as const, body: executedQuoteView(now) };
      }
      if (executed.repeat) throw alreadyExecuted(found);
      // SCA: the execution is held until the customer authorizes it; the answer carries the challenge.
      const sca = executed.held?.gate === SCA_AUTHORIZATION_GATE ? await challenge(em, deps, found, 'HELD_EXECUTION') : undefined;
      return { status: 200 as const, body: executedQuoteView(found, executed.held, sca) };
    },
  }),
];

/** An execution from an embedded wallet: executed (200, the quote as it left it) or held for its signature (202, the challenge). */
async function walletExecution(em: EntityManager, deps: ApiDeps, found: Quote, call: SignedCall, requestKey: string) {
  const outcome = await executeFromWallet(em, { temporal: deps.temporal, taskQueue: deps.taskQueue }, { quote: found, call, requestKey });
  if ('challenge' in outcome) return { status: 202 as const, body: outcome.challenge };
  if (outcome.executed.repeat) throw alreadyExecuted(found);
  // The wallet's owner signed; a customer of an SCA region still authorizes the payment.
  const sca = outcome.executed.held?.gate === SCA_AUTHORIZATION_GATE ? await challenge(em, deps, found, 'HELD_EXECUTION') : undefined;
  return { status: 200 as const, body: executedQuoteView(found, outcome.executed.held, sca) };
}

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
import { executeQuote, startQuote } from '../../../temporal/starters/quote';
import { signedCallOf, SignedRequestChallengeSchema, WalletSignatureHeadersSchema } from '../../../api/wallet-signature';
import type { SignedCall } from '../../wallet-auth';
import { executeFromWallet, walletSourceOf } from '../services/wallet-execution';
import { workflowInput } from '../services/quote-workflow-input';
import { createQuote, quoteIds, quoteView, readQuoteRequestRows, type QuoteRequest } from '../services/quotes';
import { QuoteRequestSchema, QuoteSchema } from './quote-schemas';

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

async function execute(deps: ApiDeps, q: Quote, idempotencyKey: string | undefined) {
  return executeQuote(deps.temporal, workflowInput(q), { requestKey: executionRequestKey(idempotencyKey), taskQueue: deps.taskQueue });
}

/** The quote as its execution left it (PROCESSING, or held by a gate): every answer to one request is the same. */
function executedQuoteView(q: Quote, held?: { status: Quote['status'] }) {
  return quoteView(Object.assign(Object.create(Object.getPrototypeOf(q) as object) as Quote, q, { status: held?.status ?? 'PROCESSING' }));
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
      if (body.immediatelyExecute) {
        await execute(deps, q, idempotencyKey);
      } else {
        try {
          await startQuote(deps.temporal, workflowInput(q), { taskQueue: deps.taskQueue });
        } catch (err) {
          // Recorded already; executing it starts its workflow, and an unexecuted one simply cannot be executed after expiresAt.
          logger.error({ err, quoteId: q.id }, 'could not start the quote workflow');
        }
      }
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
      200: { description: 'The quote, PROCESSING once the funds are held (its transaction is transactionId)', schema: QuoteSchema },
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
      // Executed before: the quote records by which request, so no workflow is asked.
      if (found.executedAt) {
        if (found.executionKey !== requestKey) throw alreadyExecuted(found);
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
        return { status: 200 as const, body: executedQuoteView(now) };
      }
      if (executed.repeat) throw alreadyExecuted(found);
      return { status: 200 as const, body: executedQuoteView(found, executed.held) };
    },
  }),
];

/** An execution from an embedded wallet: executed (200, the quote as it left it) or held for its signature (202, the challenge). */
async function walletExecution(em: EntityManager, deps: ApiDeps, found: Quote, call: SignedCall, requestKey: string) {
  const outcome = await executeFromWallet(em, { temporal: deps.temporal, taskQueue: deps.taskQueue }, { quote: found, call, requestKey });
  if ('challenge' in outcome) return { status: 202 as const, body: outcome.challenge };
  if (outcome.executed.repeat) throw alreadyExecuted(found);
  return { status: 200 as const, body: executedQuoteView(found, outcome.executed.held) };
}

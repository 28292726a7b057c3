import type { EntityManager } from '@mikro-orm/postgresql';
import { Platform } from '../../platforms';
import { Quote, Transaction } from '../entities';
import { transactionViews } from '../services/transaction-views';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam, moneyMovementRefusals } from '../../../api/schemas/common';
import { DomainError } from '../../../domain/errors';
import { logger } from '../../../logger';
import { executionRequestKey } from '../domain/execution-attempts';
import { startQuote } from '../starters/payment';
import { workflowInput } from '../services/quote-workflow-input';
import { createQuote, quoteIds, quoteView, readQuoteRequestRows, type QuoteRequest } from '../services/quotes';
import { signedCallOf, SignedRequestChallengeSchema, WalletSignatureHeadersSchema } from '../../../api/wallet-signature';
import { executedQuoteView, executeQuoteCreatedForRequest, executeQuoteForRequest, issueChallenge } from '../services/quote-execute';
import { QuoteRequestSchema, QuoteSchema } from './quote-schemas';
import { loadScaCustomer } from '../../sca';

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
      if (body.immediatelyExecute) {
        await executeQuoteCreatedForRequest(em, deps, { quote: q, requestKey: executionRequestKey(idempotencyKey) });
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
        await issueChallenge(em, deps, q, 'QUOTE_FUNDING');
        return { status: 202, body: quoteView(await em.fork().findOneOrFail(Quote, { id: q.id })) };
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
      const outcome = await executeQuoteForRequest(em, deps, {
        quote: await findQuote(em, caller.platformId, params.quoteId),
        requestKey: executionRequestKey(idempotencyKey),
        signedCall: (walletAccountId) => signedCallOf(req, caller, walletAccountId),
      });
      if ('signatureRequired' in outcome) return { status: 202 as const, body: outcome.signatureRequired };
      return { status: 200 as const, body: executedQuoteView(outcome) };
    },
  }),
];

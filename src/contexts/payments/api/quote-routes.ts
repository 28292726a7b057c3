import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam, moneyMovementRefusals } from '../../../api/schemas/common';
import { executionRequestKey } from '../domain/execution-attempts';
import { quoteView, type QuoteRequest } from '../services/quotes';
import { signedCallOf, SignedRequestChallengeSchema, WalletSignatureHeadersSchema } from '../../../api/wallet-signature';
import { executedQuoteView, executeQuoteForRequest } from '../services/quote-execute';
import { createQuoteForRequest, findQuote } from '../services/quote-requests';
import { QuoteRequestSchema, QuoteSchema } from '../schemas/quote-schemas';

const TAGS = ['Cross-Currency Transfers'];

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
      const { quote, awaitingAuthorization } = await createQuoteForRequest(em, deps, {
        platformId: caller.platformId,
        environment: caller.environment,
        request: body as QuoteRequest,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      });
      // SCA: a real-time quote of a customer of an SCA region is answered 202 with its challenge and without payment instructions.
      return { status: awaitingAuthorization ? 202 : 201, body: quoteView(quote) };
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

import { z } from '../../../api/openapi-registry';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { authorizeQuoteChallenge, resendQuoteChallenge } from '../services/quote-challenges';
import { quoteView } from '../services/quotes';
import { QuoteSchema } from '../schemas/quote-schemas';

const TAGS = ['Strong Customer Authentication'];

export const ScaAuthorizationSchema = z
  .object({
    code: z.string().max(64).nullable().optional().openapi({ description: 'SMS_OTP: the code sent to the verified phone (sandbox: 123456)' }),
    passkeyAssertion: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .openapi({ description: "PASSKEY: the WebAuthn assertion over the challenge's passkeyAssertionOptions" }),
    origin: z.string().max(2048).nullable().optional().openapi({ description: 'PASSKEY: the origin the assertion was made on' }),
    endUserIpAddress: z.string().max(64).nullable().optional(),
  })
  .strict()
  .openapi('ScaAuthorization');

export const quoteAuthorizationRoutes = [
  defineRoute({
    method: 'post',
    path: '/quotes/:quoteId/authorize',
    permission: 'TRANSACT',
    operationId: 'authorizeQuote',
    summary: "Authorize a quote's SCA challenge",
    description:
      "Answer the quote's current scaChallenge with the customer's proof. A real-time quote advances to PENDING with its paymentInstructions once its last challenge is authorized (a cross-currency one carries a second challenge first); a held execution is released to PROCESSING, exactly once. Sandbox SMS code: 123456.",
    tags: TAGS,
    params: IdParam('quoteId'),
    body: ScaAuthorizationSchema,
    responses: {
      200: { description: 'Authorized; the quote as it is now (PENDING_AUTHORIZATION with its next challenge, PENDING, or PROCESSING)', schema: QuoteSchema },
      400: {
        description: 'INVALID_INPUT: the proof is wrong, missing, or its challenge expired (details.errors names the field)',
        schema: errorResponses[400].schema,
      },
      401: errorResponses[401],
      404: errorResponses[404],
      409: {
        description:
          'CONFLICT: the customer is outside SCA regions, or the quote has no pending challenge; SCA_SESSION_REQUIRED: the customer has no live SCA login',
        schema: errorResponses[400].schema,
      },
      423: { description: "ACCOUNT_LOCKED: the customer's SCA login is locked after too many failed attempts", schema: errorResponses[400].schema },
      429: {
        description: 'RATE_LIMITED: the challenge was voided by too many wrong proofs (the payment fails SCA_NOT_COMPLETED)',
        schema: errorResponses[400].schema,
      },
    },
    handler: async ({ em, caller, params, body, deps }) => {
      return { status: 200 as const, body: quoteView(await authorizeQuoteChallenge(em, deps, caller.platformId, params.quoteId, body)) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/quotes/:quoteId/authorize/resend',
    permission: 'TRANSACT',
    operationId: 'resendQuoteScaCode',
    summary: "Resend a quote's SCA challenge code",
    description: "Send the SMS code of the quote's pending challenge again; the challenge and its expiresAt stay as they are.",
    tags: TAGS,
    params: IdParam('quoteId'),
    responses: {
      204: { description: 'Code re-sent' },
      401: errorResponses[401],
      404: errorResponses[404],
      409: {
        description: 'CONFLICT: the customer is outside SCA regions, no SMS challenge is pending, or it is a passkey challenge',
        schema: errorResponses[400].schema,
      },
      429: { description: 'RATE_LIMITED: the code was re-sent too often', schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, params, deps }) => {
      await resendQuoteChallenge(em, deps, caller.platformId, params.quoteId);
      return { status: 204 as const };
    },
  }),
];

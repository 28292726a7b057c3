import { z } from '../../../api/openapi-registry';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { DomainError } from '../../../domain/errors';
import { domainErrorFrom } from '../../../temporal/failures';
import { decideHold } from '../starters/payment';
import { authorizeChallenge, requireScaSession, resendChallenge, SCA_AUTHORIZATION_GATE } from '../../sca';
import { Quote } from '../entities';
import { isPending, type QuoteChallenge } from '../domain/quote-challenge';
import { challengeWorkflowInput } from '../services/quote-workflow-input';
import { quoteView } from '../services/quotes';
import { QuoteSchema } from './quote-schemas';
import { startChallengeWorkflow } from '../services/quote-execute';
import { assertScaCustomer, findQuote } from './quote-routes';

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

/** The quote's pending challenge, or 409 (none: authorized, lapsed, or the quote never needed one). */
function pendingChallenge(q: Quote): QuoteChallenge {
  if (q.status !== 'PENDING_AUTHORIZATION' || !isPending(q.scaChallenge)) throw new DomainError('CONFLICT', 'The quote has no pending challenge to authorize');
  return q.scaChallenge;
}

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
      const q = await findQuote(em, caller.platformId, params.quoteId);
      await assertScaCustomer(em, q);
      const challenge = pendingChallenge(q);
      // The customer authorizes from a logged-in app: no live SCA login, no authorization.
      await requireScaSession(em, { platformId: q.platformId, customerId: q.customerId! });
      const answer = await authorizeChallenge(deps.temporal, challengeWorkflowInput(q, challenge), body, { taskQueue: deps.taskQueue });
      if (answer.next) {
        const now = await em.fork().findOneOrFail(Quote, { id: q.id });
        if (now.scaChallenge?.id === answer.next.challengeId) await startChallengeWorkflow(deps, now, now.scaChallenge);
      } else if (challenge.kind === 'HELD_EXECUTION') {
        // The challenge's workflow signals the release (durable); this waits for it, to answer the quote as it left it.
        try {
          await decideHold(deps.temporal, q.transactionId, { gate: SCA_AUTHORIZATION_GATE, decision: 'APPROVE', decisionId: challenge.id });
        } catch (err) {
          if (domainErrorFrom(err)?.code !== 'CONFLICT') throw err;
        }
      }
      return { status: 200 as const, body: quoteView(await em.fork().findOneOrFail(Quote, { id: q.id })) };
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
      const q = await findQuote(em, caller.platformId, params.quoteId);
      await assertScaCustomer(em, q);
      await resendChallenge(deps.temporal, challengeWorkflowInput(q, pendingChallenge(q)), { taskQueue: deps.taskQueue });
      return { status: 204 as const };
    },
  }),
];

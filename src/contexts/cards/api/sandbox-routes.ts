import type { z } from '../../../api/openapi-registry';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { toMinor } from '../../../domain/money';
import type { CardNetworkEventArgs } from '../../../../workflows/cards/definitions';
import { simulateCardNetworkEvent } from '../services/card-operations';
import {
  SandboxCardAdviceSchema,
  SandboxCardAuthorizationSchema,
  SandboxCardBalanceInquirySchema,
  SandboxCardClearingSchema,
  SandboxCardReturnSchema,
  SandboxCardSimulationSchema,
  SandboxCardTransactionRefSchema,
} from '../schemas/card-schemas';

type Opening = Extract<CardNetworkEventArgs['event'], { merchant: unknown }>['kind'];
type FollowUp = Exclude<CardNetworkEventArgs['event']['kind'], Opening>;

/**
 * One sandbox simulation route: the event goes to the card's workflow as an update and is
 * answered with its outcome. The reference answers 202 and reports the outcome by webhook; the
 * answer here also names the card transaction and, for a decline, its reason.
 */
function simulation<S extends z.ZodType>(
  name: string,
  operationId: string,
  description: string,
  body: S,
  toEvent: (body: z.infer<S>, newTransactionId: string) => CardNetworkEventArgs['event'],
) {
  return defineRoute({
    method: 'post',
    path: `/sandbox/cards/:cardId/simulate/${name}`,
    operationId,
    summary: `Simulate a card ${name.replaceAll('_', ' ')}`,
    description,
    tags: ['Sandbox'],
    sandboxOnly: true,
    // A network event moves money on the funding account, like the other sandbox payment simulators.
    permission: 'TRANSACT',
    idempotent: true,
    params: IdParam('cardId'),
    body,
    responses: {
      202: { description: 'Applied: the CARD_TRANSACTION.* webhook follows', schema: SandboxCardSimulationSchema },
      400: {
        description:
          'INVALID_INPUT (every invalid field listed; a card transaction in the wrong state is refused on cardTransactionId) or INSUFFICIENT_FUNDS (an advice the funding account cannot cover)',
        schema: errorResponses[400].schema,
      },
      401: errorResponses[401],
      404: errorResponses[404],
    },
    handler: async ({ em, caller, params, body, deps, idempotencyKey }) => {
      const outcome = await simulateCardNetworkEvent(em, deps, { platformId: caller.platformId, cardId: params.cardId, idempotencyKey }, (newTransactionId) =>
        toEvent(body, newTransactionId),
      );
      return { status: 202, body: outcome };
    },
  });
}

const opening = (kind: Opening) => (body: z.infer<typeof SandboxCardAuthorizationSchema>, newTransactionId: string) => ({
  kind,
  cardTransactionId: newTransactionId,
  amount: toMinor(body.amount).toString(),
  currency: body.currency.code,
  merchant: body.merchant,
});

const followUp = (kind: FollowUp) => (body: { cardTransactionId: string; amount?: number }) => ({
  kind,
  cardTransactionId: body.cardTransactionId,
  ...(body.amount !== undefined ? { amount: toMinor(body.amount).toString() } : {}),
});

export const sandboxRoutes = [
  simulation(
    'authorization',
    'sandboxSimulateCardAuthorization',
    'Sandbox: a card authorization; approved ones hold the amount on the funding account (merchant.descriptor suffix 002 declines INSUFFICIENT_FUNDS, 003 CARD_PAUSED)',
    SandboxCardAuthorizationSchema,
    opening('AUTHORIZATION'),
  ),
  simulation(
    'clearing',
    'sandboxSimulateCardClearing',
    'Sandbox: a clearing of an open authorization, in one or more parts (0 = the authorization expires)',
    SandboxCardClearingSchema,
    followUp('CLEARING'),
  ),
  simulation(
    'return',
    'sandboxSimulateCardReturn',
    'Sandbox: a merchant return of settled money (all of it: REFUNDED)',
    SandboxCardReturnSchema,
    followUp('RETURN'),
  ),
  simulation(
    'balance_inquiry',
    'sandboxSimulateCardBalanceInquiry',
    'Sandbox: a zero-amount balance inquiry; moves nothing',
    SandboxCardBalanceInquirySchema,
    (body, newTransactionId) => ({ kind: 'BALANCE_INQUIRY', cardTransactionId: newTransactionId, amount: '0', currency: '', merchant: body.merchant }),
  ),
  simulation(
    'credit_authorization',
    'sandboxSimulateCardCreditAuthorization',
    'Sandbox: a credit authorization to the card; credited when it clears',
    SandboxCardAuthorizationSchema,
    opening('CREDIT_AUTHORIZATION'),
  ),
  simulation(
    'financial_authorization',
    'sandboxSimulateCardFinancialAuthorization',
    'Sandbox: a single-message financial authorization, settled at once',
    SandboxCardAuthorizationSchema,
    opening('FINANCIAL_AUTHORIZATION'),
  ),
  simulation(
    'financial_credit_authorization',
    'sandboxSimulateCardFinancialCreditAuthorization',
    'Sandbox: a single-message financial credit, credited at once',
    SandboxCardAuthorizationSchema,
    opening('FINANCIAL_CREDIT_AUTHORIZATION'),
  ),
  simulation(
    'authorization_advice',
    'sandboxSimulateCardAuthorizationAdvice',
    'Sandbox: an advice re-sizing an open (AUTHORIZED or PARTIALLY_SETTLED) authorization to a new total',
    SandboxCardAdviceSchema,
    followUp('AUTHORIZATION_ADVICE'),
  ),
  simulation(
    'credit_authorization_advice',
    'sandboxSimulateCardCreditAuthorizationAdvice',
    'Sandbox: a network credit authorization advice; credited when it clears',
    SandboxCardAuthorizationSchema,
    opening('CREDIT_AUTHORIZATION_ADVICE'),
  ),
  simulation(
    'return_reversal',
    'sandboxSimulateCardReturnReversal',
    'Sandbox: reverses the return of a REFUNDED card transaction',
    SandboxCardTransactionRefSchema,
    followUp('RETURN_REVERSAL'),
  ),
];

import { z } from '../../../api/openapi-registry';
import { CurrencyAmountSchema, PageQuerySchema, pageOf } from '../../../api/schemas/common';
import { MAX_AMOUNT } from '../../../domain/money';
import { CARD_BRANDS, CARD_FORMS, CARD_STATE_REASONS, CARD_STATES, REQUESTABLE_STATES } from '../domain/card-state';
import { CARD_TRANSACTION_STATUSES, DECLINE_REASONS } from '../domain/card-transactions';

const id = (example: string) => z.string().min(1).max(200).openapi({ example });
const positiveAmount = (what: string) =>
  z
    .number({ error: (i) => (i.input === undefined ? `${what} is required` : `${what} must be an integer number of the smallest currency unit`) })
    .int(`${what} must be an integer number of the smallest currency unit`)
    .positive(`${what} must be greater than zero`)
    .max(Number(MAX_AMOUNT), `${what} must be at most ${MAX_AMOUNT}`)
    .openapi({ format: 'int64' });

export const CardStateSchema = z.enum(CARD_STATES).openapi('CardState');
export const CardStateReasonSchema = z.enum(CARD_STATE_REASONS).openapi('CardStateReason');

export const CardSchema = z
  .object({
    id: id('Card:019542f5-b3e7-1d02-0000-000000000010'),
    cardholderId: z.string(),
    platformCardId: z.string(),
    state: CardStateSchema,
    stateReason: CardStateReasonSchema.nullable(),
    brand: z.enum(CARD_BRANDS).optional(),
    form: z.enum(CARD_FORMS),
    last4: z.string().optional(),
    expMonth: z.number().int().min(1).max(12).optional(),
    expYear: z.number().int().optional(),
    fundingSources: z.array(z.string()).openapi({ description: 'Internal account ids in priority order; the first funds authorizations' }),
    maxSpendPerTransaction: z
      .number()
      .int()
      .min(1)
      .nullable()
      .openapi({ format: 'int64', description: 'Largest amount one transaction may authorize (equal is allowed); null = no limit' }),
    currency: z.string(),
    processorRef: z.string().optional(),
    issuerRef: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Card', { description: 'A card. It never carries the PAN or CVV: use POST /cards/{id}/reveal.' });

export const CardListSchema = pageOf(CardSchema, 'CardListResponse');

export const CardCreateSchema = z
  .object({
    cardholderId: id('Customer:019542f5-b3e7-1d02-0000-000000000001'),
    platformCardId: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .openapi({ description: `Defaults to the card id. Sandbox: ending in 002 the simulated issuer rejects the card (CLOSED, ISSUER_REJECTED)` }),
    threeDSecurePassword: z.string().min(1).max(255).optional().openapi({ description: 'Accepted for compatibility; never stored' }),
    form: z.enum(CARD_FORMS),
    fundingSources: z.array(id('InternalAccount:019542f5-b3e7-1d02-0000-000000000002')).min(1, 'at least one funding source is required').max(10),
    maxSpendPerTransaction: positiveAmount('maxSpendPerTransaction').optional(),
  })
  .strict()
  .openapi('CardCreateRequest');

export const CardUpdateSchema = z
  .object({
    state: z.enum(REQUESTABLE_STATES).optional(),
    fundingSources: z.array(id('InternalAccount:019542f5-b3e7-1d02-0000-000000000002')).min(1, 'at least one funding source is required').max(10).optional(),
    maxSpendPerTransaction: positiveAmount('maxSpendPerTransaction').nullable().optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.state === undefined && body.fundingSources === undefined && body.maxSpendPerTransaction === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['state'],
        message: 'Give at least one of state, fundingSources, maxSpendPerTransaction',
        params: { constraint: 'required' },
      });
    }
    if (body.state === 'CLOSED') {
      for (const field of ['fundingSources', 'maxSpendPerTransaction'] as const) {
        if (body[field] !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `${field} cannot be changed together with state CLOSED`,
            params: { constraint: 'notWithClosed' },
          });
      }
    }
  })
  .openapi('CardUpdateRequest');

export const CardListQuerySchema = PageQuerySchema.extend({
  cardholderId: z.string().min(1).max(200).optional().openapi({ description: 'Cards of this customer' }),
  accountId: z.string().min(1).max(200).optional().openapi({ description: 'Cards whose fundingSources contain this internal account' }),
  platformCardId: z.string().min(1).max(255).optional(),
  state: CardStateSchema.optional(),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
});

export const CardRevealSchema = z
  .object({
    panEmbedUrl: z.string().openapi({ format: 'uri', description: 'A bearer secret: render it at once, never store or log it' }),
    expiresAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('CardRevealResponse');

export const CardMerchantSchema = z
  .object({
    descriptor: z.string().min(1).max(255).openapi({
      description:
        'Sandbox: the last three characters choose the outcome (002 INSUFFICIENT_FUNDS, 003 CARD_PAUSED; anything else is decided on the card and its funds)',
    }),
    mcc: z
      .string()
      .regex(/^\d{4}$/, 'mcc is four digits')
      .optional(),
    country: z.string().length(2).optional(),
  })
  .strict()
  .openapi('CardMerchant');

const CardTransactionIdSchema = id('CardTransaction:019542f5-b3e7-1d02-0000-000000000100');

export const SandboxCardAuthorizationSchema = z
  .object({ amount: positiveAmount('amount'), currency: z.object({ code: z.string().min(3).max(10) }).passthrough(), merchant: CardMerchantSchema })
  .strict()
  .openapi('SandboxCardAuthorizationRequest');
export const SandboxCardClearingSchema = z
  .object({
    cardTransactionId: CardTransactionIdSchema,
    amount: z.number().int().min(0).max(Number(MAX_AMOUNT)).openapi({ format: 'int64', description: '0 expires the authorization' }),
  })
  .strict()
  .openapi('SandboxCardClearingRequest');
export const SandboxCardReturnSchema = z
  .object({ cardTransactionId: CardTransactionIdSchema, amount: positiveAmount('amount') })
  .strict()
  .openapi('SandboxCardReturnRequest');
export const SandboxCardBalanceInquirySchema = z.object({ merchant: CardMerchantSchema }).strict().openapi('SandboxCardBalanceInquiryRequest');
export const SandboxCardAdviceSchema = z
  .object({ cardTransactionId: CardTransactionIdSchema, amount: positiveAmount('amount').openapi({ description: 'The new total authorized amount' }) })
  .strict()
  .openapi('SandboxCardAuthorizationAdviceRequest');
export const SandboxCardTransactionRefSchema = z.object({ cardTransactionId: CardTransactionIdSchema }).strict().openapi('SandboxCardTransactionRefRequest');

export const SandboxCardSimulationSchema = z
  .object({
    issuerTransactionToken: z.string(),
    cardTransactionId: z
      .string()
      .optional()
      .openapi({ description: 'The card transaction the event created or changed (absent when declined or for a balance inquiry)' }),
    declineReason: z.enum(DECLINE_REASONS).optional().openapi({
      description:
        'Set when the authorization was declined; nothing was held (FUNDING_SOURCE_NOT_AUTHORIZED: an embedded-wallet funding source without an ACTIVE delegated key for the card)',
    }),
  })
  .openapi('SandboxCardSimulationResponse');

const summary = (name: string) => z.object({ count: z.number().int(), totalAmount: z.number().int().openapi({ format: 'int64' }) }).openapi(name);

export const CardTransactionSchema = z
  .object({
    type: z.literal('CARD'),
    id: z.string(),
    cardId: z.string(),
    customerId: z.string(),
    platformCustomerId: z.string(),
    issuerTransactionToken: z.string(),
    status: z.enum(CARD_TRANSACTION_STATUSES).openapi('CardTransactionStatus'),
    direction: z.enum(['CREDIT', 'DEBIT']),
    merchant: CardMerchantSchema,
    authorizedAmount: CurrencyAmountSchema,
    settledAmount: CurrencyAmountSchema,
    refundedAmount: CurrencyAmountSchema,
    accountId: z.string(),
    pullSummary: z
      .object({ count: z.number().int(), totalAmount: z.number().int().openapi({ format: 'int64' }), pendingCount: z.number().int() })
      .openapi('CardPullSummary'),
    refundSummary: summary('CardRefundSummary'),
    settlementSummary: summary('CardSettlementSummary'),
    authorizedAt: z.string(),
    lastEventAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('CardTransaction');

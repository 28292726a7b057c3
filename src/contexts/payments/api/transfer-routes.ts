import { z } from '../../../api/openapi-registry';
import { defineRoute } from '../../../api/route';
import { errorResponses, moneyMovementRefusals } from '../../../api/schemas/common';
import { DomainError } from '../../../domain/errors';
import { MAX_AMOUNT } from '../../../domain/money';
import { InternalAccount } from '../../ledger/entities';
import { ExternalAccount } from '../../external-accounts/entities';
import { Platform } from '../../platforms/entities';
import { executeQuote } from '../../../temporal/starters/quote';
import { createQuote } from '../services/quotes';
import { currentTransactionView, workflowInput } from './quote-routes';
import { TransactionSchema } from './schemas';

const TransferOutRequestSchema = z
  .object({
    source: z.object({ accountId: z.string().min(1).max(200) }).strict().openapi('InternalAccountReference'),
    destination: z.object({ accountId: z.string().min(1).max(200), paymentRail: z.string().min(1).max(32).optional() }).strict().openapi('ExternalAccountDestinationReference'),
    amount: z.number().int().positive().max(Number(MAX_AMOUNT)).openapi({ format: 'int64', description: 'Smallest unit of the (shared) currency' }),
    remittanceInformation: z.string().max(80).optional(),
    purposeOfPayment: z.string().min(1).max(64).optional(),
  })
  .strict()
  .openapi('TransferOutRequest');

/**
 * The deprecated same-currency push (spec §9): served by the quote machinery — a quote with the
 * amount locked on the sending side, executed at once — so it has the same gates, ledger path,
 * sandbox rows and webhooks as any payout.
 */
export const transferRoutes = [
  defineRoute({
    method: 'post',
    path: '/transfer-out',
    operationId: 'createTransferOut',
    summary: 'Deprecated: same-currency transfer from an internal account to an external account (use POST /quotes)',
    tags: ['Same-Currency Transfers'],
    body: TransferOutRequestSchema,
    idempotent: true,
    deprecated: { successor: '/quotes' },
    responses: {
      201: { description: 'The transaction, PROCESSING (or already further)', schema: TransactionSchema },
      400: { description: 'INVALID_INPUT (the accounts hold different currencies), INSUFFICIENT_FUNDS, INVALID_BANK_ACCOUNT, …', schema: errorResponses[400].schema },
      401: errorResponses[401],
      404: { description: "USER_NOT_FOUND: the source account's customer is gone", schema: errorResponses[404].schema },
      409: { description: 'BANK_ACCOUNT_VALIDATION_PENDING', schema: errorResponses[400].schema },
      ...moneyMovementRefusals,
    },
    handler: async ({ em, caller, body, deps }) => {
      const [source, destination] = await Promise.all([
        em.findOne(InternalAccount, { id: body.source.accountId, platformId: caller.platformId }),
        em.findOne(ExternalAccount, { id: body.destination.accountId, platformId: caller.platformId, deletedAt: null }),
      ]);
      if (source && destination && source.currency !== destination.currency) {
        throw DomainError.invalidInput([{ field: 'destination.accountId', constraint: 'sameCurrency', message: `the account holds ${destination.currency}, the source ${source.currency}; use POST /quotes to convert` }]);
      }
      const platform = await em.findOneOrFail(Platform, { id: caller.platformId });
      const quote = await createQuote(em, {
        platform,
        environment: caller.environment,
        request: {
          source: { sourceType: 'ACCOUNT', accountId: body.source.accountId },
          destination: { destinationType: 'ACCOUNT', accountId: body.destination.accountId, ...(body.destination.paymentRail ? { paymentRail: body.destination.paymentRail } : {}) },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: body.amount,
          ...(body.remittanceInformation ? { remittanceInformation: body.remittanceInformation } : {}),
          ...(body.purposeOfPayment ? { purposeOfPayment: body.purposeOfPayment } : {}),
        },
      });
      const { transactionId } = await executeQuote(deps.temporal, workflowInput(quote), { taskQueue: deps.taskQueue });
      return { status: 201, body: await currentTransactionView(em, transactionId) };
    },
  }),
];

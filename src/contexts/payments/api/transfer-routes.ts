import { z } from '../../../api/openapi-registry';
import { defineRoute, type HandlerContext } from '../../../api/route';
import { errorResponses, moneyMovementRefusals } from '../../../api/schemas/common';
import { DomainError, type FieldError } from '../../../domain/errors';
import { MAX_AMOUNT } from '../../../domain/money';
import { InternalAccount } from '../../ledger';
import { ExternalAccount } from '../../external-accounts';
import { Platform } from '../../platforms';
import { executeQuote } from '../../../temporal/starters/quote';
import { executionRequestKey } from '../domain/execution-attempts';
import { createQuote, type QuoteRequest } from '../services/quotes';
import { currentTransactionView } from './quote-routes';
import { workflowInput } from '../services/quote-workflow-input';
import { TransactionSchema } from './schemas';

const TransferOutRequestSchema = z
  .object({
    source: z
      .object({ accountId: z.string().min(1).max(200) })
      .strict()
      .openapi('InternalAccountReference'),
    destination: z
      .object({ accountId: z.string().min(1).max(200), paymentRail: z.string().min(1).max(32).optional() })
      .strict()
      .openapi('ExternalAccountDestinationReference'),
    amount: z.number().int().positive().max(Number(MAX_AMOUNT)).openapi({ format: 'int64', description: 'Smallest unit of the (shared) currency' }),
    remittanceInformation: z.string().max(80).optional(),
    purposeOfPayment: z.string().min(1).max(64).optional(),
  })
  .strict()
  .openapi('TransferOutRequest');

const TransferInRequestSchema = z
  .object({
    source: z
      .object({ accountId: z.string().min(1).max(200) })
      .strict()
      .openapi('ExternalAccountReference'),
    destination: z
      .object({ accountId: z.string().min(1).max(200) })
      .strict()
      .openapi('InternalAccountReference'),
    amount: z.number().int().positive().max(Number(MAX_AMOUNT)).openapi({ format: 'int64', description: 'Smallest unit of the (shared) currency' }),
  })
  .strict()
  .openapi('TransferInRequest');

interface SameCurrencyTransfer {
  /** The request's names of the two accounts, for field errors. */
  internal: { field: string; accountId: string };
  external: { field: string; accountId: string };
  request: Omit<QuoteRequest, 'lockedCurrencySide' | 'lockedCurrencyAmount'>;
  amount: number;
}

/**
 * The deprecated same-currency transfers (spec §9), served by the quote machinery — a quote with
 * the amount locked on the sending side, executed at once — so they have the same gates, ledger
 * path, sandbox rows and webhooks as any quote: a transfer-out is a payout, a transfer-in a pull
 * from the customer's external account into its internal account.
 */
async function sameCurrencyTransfer(
  { em, caller, deps, idempotencyKey }: Pick<HandlerContext<unknown, unknown, unknown>, 'em' | 'caller' | 'deps' | 'idempotencyKey'>,
  transfer: SameCurrencyTransfer,
) {
  const errors: FieldError[] = [];
  if (!transfer.internal.accountId.startsWith('InternalAccount:'))
    errors.push({ field: transfer.internal.field, constraint: 'internalAccount', message: 'must be an internal account id' });
  if (!transfer.external.accountId.startsWith('ExternalAccount:'))
    errors.push({ field: transfer.external.field, constraint: 'externalAccount', message: 'must be an external account id' });
  if (errors.length > 0) throw DomainError.invalidInput(errors);
  const [internal, external] = await Promise.all([
    em.findOne(InternalAccount, { id: transfer.internal.accountId, platformId: caller.platformId }),
    em.findOne(ExternalAccount, { id: transfer.external.accountId, platformId: caller.platformId, deletedAt: null }),
  ]);
  // A wallet pays only what its owner signed, and this call carries nothing to sign: its payments go through a quote.
  if (internal?.type === 'EMBEDDED_WALLET' && transfer.internal.field === 'source.accountId') {
    throw DomainError.invalidInput([
      {
        field: transfer.internal.field,
        constraint: 'embeddedWallet',
        message: 'an EMBEDDED_WALLET pays through a quote its owner signs: POST /quotes, then POST /quotes/{quoteId}/execute with Svc-Wallet-Signature',
      },
    ]);
  }
  if (internal && external && internal.currency !== external.currency) {
    throw DomainError.invalidInput([
      {
        field: transfer.external.field,
        constraint: 'sameCurrency',
        message: `the external account holds ${external.currency}, the internal one ${internal.currency}; use POST /quotes to convert`,
      },
    ]);
  }
  const platform = await em.findOneOrFail(Platform, { id: caller.platformId });
  const quote = await createQuote(em, {
    platform,
    environment: caller.environment,
    request: { ...transfer.request, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: transfer.amount },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
  const { transactionId } = await executeQuote(deps.temporal, workflowInput(quote), {
    requestKey: executionRequestKey(idempotencyKey),
    taskQueue: deps.taskQueue,
  });
  return { status: 201, body: await currentTransactionView(em, transactionId) };
}

export const transferRoutes = [
  defineRoute({
    method: 'post',
    path: '/transfer-out',
    permission: 'TRANSACT',
    operationId: 'createTransferOut',
    summary: 'Create a transfer-out request',
    description: 'Deprecated: same-currency transfer from an internal account to an external account (use POST /quotes)',
    tags: ['Same-Currency Transfers'],
    body: TransferOutRequestSchema,
    idempotent: true,
    deprecated: { successor: '/quotes' },
    responses: {
      201: { description: 'The transaction, PROCESSING (or already further)', schema: TransactionSchema },
      400: {
        description:
          'INVALID_INPUT (the accounts hold different currencies; an EMBEDDED_WALLET source, constraint embeddedWallet: wallets pay through a signed quote), INSUFFICIENT_FUNDS, INVALID_BANK_ACCOUNT, …',
        schema: errorResponses[400].schema,
      },
      401: errorResponses[401],
      404: { description: "USER_NOT_FOUND: the source account's customer is gone", schema: errorResponses[404].schema },
      409: { description: 'BANK_ACCOUNT_VALIDATION_PENDING', schema: errorResponses[400].schema },
      ...moneyMovementRefusals,
    },
    handler: async (ctx) => {
      const { body } = ctx;
      return sameCurrencyTransfer(ctx, {
        internal: { field: 'source.accountId', accountId: body.source.accountId },
        external: { field: 'destination.accountId', accountId: body.destination.accountId },
        amount: body.amount,
        request: {
          source: { sourceType: 'ACCOUNT', accountId: body.source.accountId },
          destination: {
            destinationType: 'ACCOUNT',
            accountId: body.destination.accountId,
            ...(body.destination.paymentRail ? { paymentRail: body.destination.paymentRail } : {}),
          },
          ...(body.remittanceInformation ? { remittanceInformation: body.remittanceInformation } : {}),
          ...(body.purposeOfPayment ? { purposeOfPayment: body.purposeOfPayment } : {}),
        },
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/transfer-in',
    permission: 'TRANSACT',
    operationId: 'createTransferIn',
    summary: 'Create a transfer-in request',
    description: "Deprecated: same-currency pull from a customer's external account (ACH pull) into its internal account (use POST /quotes)",
    tags: ['Same-Currency Transfers'],
    body: TransferInRequestSchema,
    idempotent: true,
    deprecated: { successor: '/quotes' },
    responses: {
      201: { description: 'The INCOMING transaction, PROCESSING (or already further)', schema: TransactionSchema },
      400: {
        description: 'INVALID_INPUT (not a pullable account, accounts of different currencies or owners), INVALID_BANK_ACCOUNT, …',
        schema: errorResponses[400].schema,
      },
      401: errorResponses[401],
      404: { description: "USER_NOT_FOUND: the account's customer is gone", schema: errorResponses[404].schema },
      409: { description: 'BANK_ACCOUNT_VALIDATION_PENDING: the US account is inside its validation window', schema: errorResponses[400].schema },
      ...moneyMovementRefusals,
    },
    handler: async (ctx) => {
      const { body } = ctx;
      return sameCurrencyTransfer(ctx, {
        internal: { field: 'destination.accountId', accountId: body.destination.accountId },
        external: { field: 'source.accountId', accountId: body.source.accountId },
        amount: body.amount,
        request: {
          source: { sourceType: 'ACCOUNT', accountId: body.source.accountId },
          destination: { destinationType: 'ACCOUNT', accountId: body.destination.accountId },
        },
      });
    },
  }),
];

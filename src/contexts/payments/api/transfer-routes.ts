import { defineRoute, type HandlerContext } from '../../../api/route';
import { errorResponses, moneyMovementRefusals } from '../../../api/schemas/common';
import { sameCurrencyTransfer, transferInOf, transferOutOf, type SameCurrencyTransfer } from '../services/same-currency-transfers';
import { currentTransactionView } from '../services/transaction-views';
import { TransactionSchema } from '../schemas/transaction-schemas';
import { TransferInRequestSchema, TransferOutRequestSchema } from '../schemas/transfer-schemas';

/** The platform's transfer: answered with its transaction as it is now. */
async function platformTransfer(
  { em, caller, deps, idempotencyKey }: Pick<HandlerContext<unknown, unknown, unknown>, 'em' | 'caller' | 'deps' | 'idempotencyKey'>,
  transfer: SameCurrencyTransfer,
) {
  const { quote } = await sameCurrencyTransfer(
    {
      em,
      deps,
      platformId: caller.platformId,
      environment: caller.environment,
      ...(idempotencyKey ? { idempotencyKey } : {}),
    },
    transfer,
  );
  return { status: 201, body: await currentTransactionView(em, quote.transactionId) };
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
      return platformTransfer(ctx, transferOutOf(body));
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
      return platformTransfer(ctx, transferInOf(body));
    },
  }),
];

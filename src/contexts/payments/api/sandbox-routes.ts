import { defineRoute, type HandlerContext } from '../../../api/route';
import { errorResponses, IdParam, moneyMovementRefusals } from '../../../api/schemas/common';
import { internalAccountView, InternalAccountSchema, SandboxFundRequestSchema } from '../../ledger';
import { fundInternalAccountInSandbox, receiveSandboxUmaPayment, sendSandboxFunds, type SandboxCall } from '../services/sandbox-payments';
import { SandboxSendRequestSchema, SandboxUmaReceiveRequestSchema } from '../schemas/quote-schemas';
import { TransactionSchema } from '../schemas/transaction-schemas';

/** What a simulation needs of its request. */
function sandboxCall({
  em,
  caller,
  deps,
  idempotencyKey,
}: Pick<HandlerContext<unknown, unknown, unknown>, 'em' | 'caller' | 'deps' | 'idempotencyKey'>): SandboxCall {
  return { em, deps, platformId: caller.platformId, environment: caller.environment, ...(idempotencyKey ? { idempotencyKey } : {}) };
}

export const sandboxRoutes = [
  defineRoute({
    method: 'post',
    path: '/sandbox/internal-accounts/:accountId/fund',
    permission: 'TRANSACT',
    operationId: 'sandboxFundInternalAccount',
    summary: 'Simulate funding an internal account',
    description: 'Sandbox: credit an internal account at once, as an incoming payment',
    tags: ['Sandbox'],
    params: IdParam('accountId'),
    body: SandboxFundRequestSchema,
    idempotent: true,
    sandboxOnly: true,
    responses: {
      200: { description: 'The account with its new balance', schema: InternalAccountSchema },
      400: errorResponses[400],
      401: errorResponses[401],
      ...moneyMovementRefusals,
      404: errorResponses[404],
    },
    handler: async (ctx) => {
      const after = await fundInternalAccountInSandbox(sandboxCall(ctx), ctx.params.accountId, ctx.body.amount);
      return { status: 200, body: internalAccountView(after.account, after.ledger) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/sandbox/send',
    permission: 'TRANSACT',
    operationId: 'sandboxSend',
    summary: 'Simulate sending funds',
    description: "Sandbox: pay a real-time-funded quote, as the payer's bank transfer quoting its reference would",
    tags: ['Sandbox'],
    body: SandboxSendRequestSchema,
    idempotent: 'workflow',
    sandboxOnly: true,
    responses: {
      200: { description: 'The transaction as the arrival of funds left it: PROCESSING (GET it for where it is now)', schema: TransactionSchema },
      400: {
        description: 'INVALID_INPUT (currencyCode not the funding currency, currencyAmount not the quote amount), QUOTE_EXPIRED',
        schema: errorResponses[400].schema,
      },
      401: errorResponses[401],
      404: { description: 'QUOTE_NOT_FOUND', schema: errorResponses[404].schema },
      409: { description: 'CONFLICT: not a REALTIME_FUNDING quote, or no longer payable', schema: errorResponses[400].schema },
      ...moneyMovementRefusals,
    },
    handler: async (ctx) => ({ status: 200, body: await sendSandboxFunds(sandboxCall(ctx), ctx.body) }),
  }),
  defineRoute({
    method: 'post',
    path: '/sandbox/uma/receive',
    permission: 'TRANSACT',
    operationId: 'sandboxReceive',
    summary: 'Simulate payment send to test receiving an UMA payment',
    description: "Sandbox: a UMA payment from a sandbox sender arrives for one of the platform's customers, who approves it through its webhook first",
    tags: ['Sandbox'],
    body: SandboxUmaReceiveRequestSchema,
    idempotent: true,
    sandboxOnly: true,
    responses: {
      200: {
        description:
          "The incoming transaction as the platform's approval (its INCOMING_PAYMENT.PENDING webhook's answer) left it: COMPLETED (200, or no webhook endpoint), REJECTED (403), FAILED (422, webhook error; or approved from a sender whose user name ends 006 or 007: not creditable, FAILED OFFRAMP_FAILED with a refund to the sender, COMPLETED or, for 007, FAILED), or PENDING (202: approve or reject it within 5 seconds)",
        schema: TransactionSchema,
      },
      400: { description: 'INVALID_INPUT: no receiver named, the receiver holds no account in the currency, …', schema: errorResponses[400].schema },
      401: errorResponses[401],
      404: { description: 'USER_NOT_FOUND or UMA_NOT_FOUND: no such receiver on this platform', schema: errorResponses[404].schema },
      ...moneyMovementRefusals,
    },
    handler: async (ctx) => ({ status: 200, body: await receiveSandboxUmaPayment(sandboxCall(ctx), ctx.body) }),
  }),
];

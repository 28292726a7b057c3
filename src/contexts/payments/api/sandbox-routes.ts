import { DomainError } from '../../../domain/errors';
import { derivedId, newId } from '../../../domain/ids';
import { toMinor } from '../../../domain/money';
import { assertCustomerMayMoveMoney, Customer } from '../../customers';
import { runIncomingPayment } from '../starters/incoming-payment';
import { findInternalAccount, internalAccountView, InternalAccountSchema, SandboxFundRequestSchema, InternalAccount } from '../../ledger';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam, moneyMovementRefusals } from '../../../api/schemas/common';
import { fundQuote } from '../starters/payment';
import { currentTransactionView, findQuote } from './quote-routes';
import { workflowInput } from '../services/quote-workflow-input';
import { assertPaidBySendingFunds } from '../domain/quote-funding';
import { SandboxSendRequestSchema, SandboxUmaReceiveRequestSchema } from './quote-schemas';
import type { EntityManager } from '@mikro-orm/postgresql';
import { customerByUmaAddress } from '../services/lookups';
import { TransactionSchema } from './schemas';
import { Quote } from '../entities';

/**
 * The payment as the arrival of its funds left it: PROCESSING, updated when the quote was paid.
 * Every answer to a send is this one, however far the payment has gone since (a retry that comes
 * after the payout completed gets the same bytes as the first answer).
 */
async function fundedTransactionView(em: EntityManager, quoteId: string) {
  const quote = await em.fork().findOneOrFail(Quote, { id: quoteId });
  const now = await currentTransactionView(em, quote.transactionId);
  const {
    settledAt: _settled,
    failureReason: _failure,
    refund: _refund,
    receiptDeliveryConfirmedAt: _receipt,
    ...funded
  } = now as typeof now & {
    refund?: unknown;
    receiptDeliveryConfirmedAt?: unknown;
  };
  return { ...funded, status: 'PROCESSING' as const, updatedAt: (quote.executedAt ?? quote.updatedAt).toISOString() };
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
    handler: async ({ em, caller, params, body, deps, idempotencyKey }) => {
      const found = await findInternalAccount(em, caller.platformId, params.accountId);
      if (!found) throw DomainError.notFound('Internal account');
      if (found.account.status !== 'ACTIVE') throw new DomainError('INVALID_STATE_TRANSITION', `The account is ${found.account.status}`);
      if (found.account.customerId) await assertCustomerMayMoveMoney(em, caller.platformId, found.account.customerId);
      const amount = toMinor(body.amount);
      // With an Idempotency-Key the transaction id (= workflow id) is derived from it, so even a
      // retry that bypassed the idempotency store cannot start a second payment.
      const transactionId = idempotencyKey ? derivedId('Transaction', caller.platformId, 'sandbox-fund', idempotencyKey) : newId('Transaction');
      await runIncomingPayment(
        deps.temporal,
        {
          transactionId,
          platformId: caller.platformId,
          environment: caller.environment,
          customerId: found.account.customerId ?? null,
          internalAccountId: found.account.id,
          currency: found.account.currency,
          amount: amount.toString(),
          source: { sourceType: 'SANDBOX_FUNDING' },
        },
        { taskQueue: deps.taskQueue },
      );
      const after = await findInternalAccount(em.fork(), caller.platformId, found.account.id);
      return { status: 200, body: internalAccountView(after!.account, after!.ledger) };
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
    handler: async ({ em, caller, body, deps, idempotencyKey }) => {
      const found = await findQuote(em, caller.platformId, body.quoteId);
      // Before "paid already" below: an executed account-funded quote is no more payable than a pending one.
      assertPaidBySendingFunds(found);
      if (body.currencyCode !== found.sendingCurrency) {
        throw DomainError.invalidInput([
          { field: 'currencyCode', constraint: 'fundingCurrency', message: `must be the quote's funding currency, ${found.sendingCurrency}` },
        ]);
      }
      // Paid already: the payment it started, as the funding left it.
      if (found.executedAt) return { status: 200, body: await fundedTransactionView(em, found.id) };
      const amount = body.currencyAmount !== undefined ? BigInt(body.currencyAmount) : found.totalSendingAmount;
      await fundQuote(deps.temporal, workflowInput(found), amount, {
        taskQueue: deps.taskQueue,
        ...(idempotencyKey ? { requestKey: idempotencyKey } : {}),
      });
      return { status: 200, body: await fundedTransactionView(em, found.id) };
    },
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
    handler: async ({ em, caller, body, deps, idempotencyKey }) => {
      const receiver = await receivingCustomer(em, caller.platformId, body);
      const account = await em.findOne(InternalAccount, {
        platformId: caller.platformId,
        customerId: receiver.id,
        currency: body.receivingCurrencyCode,
        status: 'ACTIVE',
      });
      if (!account)
        throw DomainError.invalidInput([
          { field: 'receivingCurrencyCode', constraint: 'receiverAccount', message: `the receiver holds no active ${body.receivingCurrencyCode} account` },
        ]);
      await assertCustomerMayMoveMoney(em, caller.platformId, receiver.id);
      const transactionId = idempotencyKey ? derivedId('Transaction', caller.platformId, 'sandbox-uma-receive', idempotencyKey) : newId('Transaction');
      await runIncomingPayment(
        deps.temporal,
        {
          transactionId,
          platformId: caller.platformId,
          environment: caller.environment,
          customerId: receiver.id,
          internalAccountId: account.id,
          currency: account.currency,
          amount: toMinor(body.receivingCurrencyAmount).toString(),
          source: { sourceType: 'UMA_ADDRESS', umaAddress: body.senderUmaAddress },
          ...(deps.incomingPaymentApprovalWindowMs ? { approvalWindowMs: deps.incomingPaymentApprovalWindowMs } : {}),
        },
        { taskQueue: deps.taskQueue },
      );
      return { status: 200, body: await currentTransactionView(em, transactionId) };
    },
  }),
];

/** The receiver of a simulated UMA payment: by address, by id, or both (then the same customer). */
async function receivingCustomer(em: EntityManager, platformId: string, body: { receiverUmaAddress?: string; customerId?: string }) {
  if (!body.receiverUmaAddress && !body.customerId) {
    throw DomainError.invalidInput([{ field: 'receiverUmaAddress', constraint: 'required', message: 'name the receiver by receiverUmaAddress or customerId' }]);
  }
  const byAddress = body.receiverUmaAddress ? await customerByUmaAddress(em, platformId, body.receiverUmaAddress) : null;
  if (body.receiverUmaAddress && !byAddress) throw new DomainError('UMA_NOT_FOUND', 'No receiver has this UMA address');
  const byId = body.customerId ? await em.findOne(Customer, { id: body.customerId, platformId, isDeleted: false }) : null;
  if (body.customerId && !byId) throw DomainError.notFound('Customer');
  if (byAddress && byId && byAddress.id !== byId.id) {
    throw DomainError.invalidInput([
      { field: 'customerId', constraint: 'sameReceiver', message: 'customerId and receiverUmaAddress name different customers' },
    ]);
  }
  return (byAddress ?? byId)!;
}

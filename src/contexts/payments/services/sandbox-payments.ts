import type { EntityManager } from '@mikro-orm/postgresql';
import { assertCustomerMayMoveMoney, Customer } from '../../customers';
import { findInternalAccount, InternalAccount } from '../../ledger';
import type { Environment } from '../../platforms';
import { DomainError } from '../../../domain/errors';
import { derivedId, newId } from '../../../domain/ids';
import { toMinor } from '../../../domain/money';
import { runIncomingPayment } from '../starters/incoming-payment';
import { fundQuote } from '../starters/payment';
import { assertPaidBySendingFunds } from '../domain/quote-funding';
import { Quote } from '../entities';
import { customerByUmaAddress } from './lookups';
import type { ExecutionDeps } from './quote-execute';
import { findQuote } from './quote-requests';
import { currentTransactionView } from './transaction-views';
import { workflowInput } from './quote-workflow-input';

/** What a sandbox simulation needs to know of its request. */
export interface SandboxCall {
  em: EntityManager;
  deps: Pick<ExecutionDeps, 'temporal' | 'taskQueue'> & { incomingPaymentApprovalWindowMs?: number };
  platformId: string;
  environment: Environment;
  idempotencyKey?: string;
}

/**
 * POST /sandbox/internal-accounts/{id}/fund: an incoming payment credits the account at once.
 * Returns the account as the payment left it.
 */
export async function fundInternalAccountInSandbox({ em, deps, platformId, environment, idempotencyKey }: SandboxCall, accountId: string, amount: number) {
  const found = await findInternalAccount(em, platformId, accountId);
  if (!found) throw DomainError.notFound('Internal account');
  if (found.account.status !== 'ACTIVE') throw new DomainError('INVALID_STATE_TRANSITION', `The account is ${found.account.status}`);
  if (found.account.customerId) await assertCustomerMayMoveMoney(em, platformId, found.account.customerId);
  const minor = toMinor(amount);
  // With an Idempotency-Key the transaction id (= workflow id) is derived from it, so even a
  // retry that bypassed the idempotency store cannot start a second payment.
  const transactionId = idempotencyKey ? derivedId('Transaction', platformId, 'sandbox-fund', idempotencyKey) : newId('Transaction');
  await runIncomingPayment(
    deps.temporal,
    {
      transactionId,
      platformId,
      environment,
      customerId: found.account.customerId ?? null,
      internalAccountId: found.account.id,
      currency: found.account.currency,
      amount: minor.toString(),
      source: { sourceType: 'SANDBOX_FUNDING' },
    },
    { taskQueue: deps.taskQueue },
  );
  return (await findInternalAccount(em.fork(), platformId, found.account.id))!;
}

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

/** POST /sandbox/send: a real-time-funded quote paid, as the payer's bank transfer quoting its reference would. */
export async function sendSandboxFunds(
  { em, deps, platformId, idempotencyKey }: SandboxCall,
  request: { quoteId: string; currencyCode: string; currencyAmount?: number },
) {
  const found = await findQuote(em, platformId, request.quoteId);
  // Before "paid already" below: an executed account-funded quote is no more payable than a pending one.
  assertPaidBySendingFunds(found);
  if (request.currencyCode !== found.sendingCurrency) {
    throw DomainError.invalidInput([
      { field: 'currencyCode', constraint: 'fundingCurrency', message: `must be the quote's funding currency, ${found.sendingCurrency}` },
    ]);
  }
  // Paid already: the payment it started, as the funding left it.
  if (found.executedAt) return fundedTransactionView(em, found.id);
  const amount = request.currencyAmount !== undefined ? BigInt(request.currencyAmount) : found.totalSendingAmount;
  await fundQuote(deps.temporal, workflowInput(found), amount, {
    taskQueue: deps.taskQueue,
    ...(idempotencyKey ? { requestKey: idempotencyKey } : {}),
  });
  return fundedTransactionView(em, found.id);
}

export interface SandboxUmaPayment {
  receiverUmaAddress?: string;
  customerId?: string;
  receivingCurrencyCode: string;
  receivingCurrencyAmount: number;
  senderUmaAddress: string;
}

/** POST /sandbox/uma/receive: a UMA payment from a sandbox sender arrives for a customer; answered with its transaction as the platform's approval left it. */
export async function receiveSandboxUmaPayment({ em, deps, platformId, environment, idempotencyKey }: SandboxCall, payment: SandboxUmaPayment) {
  const receiver = await receivingCustomer(em, platformId, payment);
  const account = await em.findOne(InternalAccount, {
    platformId,
    customerId: receiver.id,
    currency: payment.receivingCurrencyCode,
    status: 'ACTIVE',
  });
  if (!account)
    throw DomainError.invalidInput([
      { field: 'receivingCurrencyCode', constraint: 'receiverAccount', message: `the receiver holds no active ${payment.receivingCurrencyCode} account` },
    ]);
  await assertCustomerMayMoveMoney(em, platformId, receiver.id);
  const transactionId = idempotencyKey ? derivedId('Transaction', platformId, 'sandbox-uma-receive', idempotencyKey) : newId('Transaction');
  await runIncomingPayment(
    deps.temporal,
    {
      transactionId,
      platformId,
      environment,
      customerId: receiver.id,
      internalAccountId: account.id,
      currency: account.currency,
      amount: toMinor(payment.receivingCurrencyAmount).toString(),
      source: { sourceType: 'UMA_ADDRESS', umaAddress: payment.senderUmaAddress },
      ...(deps.incomingPaymentApprovalWindowMs ? { approvalWindowMs: deps.incomingPaymentApprovalWindowMs } : {}),
    },
    { taskQueue: deps.taskQueue },
  );
  return currentTransactionView(em, transactionId);
}

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

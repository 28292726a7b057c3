import { WorkflowExecutionAlreadyStartedError, WorkflowFailedError, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Customer } from '../../customers/entities/index';
import { Platform } from '../../platforms/entities/index';
import { ApiError } from '../../../domain/errors';
import { balanceRefusal, END_USER_TERMS } from '../../customers/domain/onboarding';
import { derivedId, newId } from '../../../domain/ids';
import { toMinor } from '../../../domain/money';
import { findInternalAccount } from '../../ledger/services/internal-accounts';
import { internalAccountView } from '../../ledger/services/internal-account-views';
import { AccountIdKey, BusinessStatusKey, CustomerIdKey, PlatformIdKey, TransactionIdKey } from '../../../temporal/search-attributes';
import { TASK_QUEUE } from '../../../temporal/task-queue';
import type { incomingPayment } from '../../../../workflows/payments/incoming-payment';
import { defineRoute } from '../../../api/route';
import { InternalAccountSchema, SandboxFundRequestSchema } from '../../ledger/api/schemas';
import { errorResponses, IdParam } from '../../../api/schemas/common';

/**
 * Money moves only for customers who may hold balances: KYC/KYB APPROVED (else 403
 * USER_NOT_READY) and, on platforms that are not regulated institutions, with the service's
 * end-user terms accepted (else 403 END_USER_TERMS_NOT_ACCEPTED).
 */
async function assertMayMoveMoney(em: EntityManager, platformId: string, customerId: string): Promise<void> {
  const customer = await em.findOneOrFail(Customer, { id: customerId, platformId });
  if (customer.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', 'The customer was deleted; its accounts take no new money');
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  switch (balanceRefusal(platform, customer)) {
    case 'USER_NOT_READY':
      throw ApiError.forbidden('USER_NOT_READY', `The customer's verification is ${customer.kycStatus}; money can move once it is APPROVED`);
    case 'END_USER_TERMS_NOT_ACCEPTED':
      throw ApiError.forbidden('END_USER_TERMS_NOT_ACCEPTED', `The customer has not accepted ${END_USER_TERMS}`);
  }
}

export const sandboxRoutes = [
  defineRoute({
    method: 'post',
    path: '/sandbox/internal-accounts/:accountId/fund',
    operationId: 'sandboxFundInternalAccount',
    summary: 'Sandbox: credit an internal account at once, as an incoming payment',
    tags: ['Sandbox'],
    params: IdParam('accountId'),
    body: SandboxFundRequestSchema,
    idempotent: true,
    sandboxOnly: true,
    responses: {
      200: { description: 'The account with its new balance', schema: InternalAccountSchema },
      400: errorResponses[400],
      401: errorResponses[401],
      403: { description: 'FORBIDDEN (a production token was used), USER_NOT_READY (customer not APPROVED) or END_USER_TERMS_NOT_ACCEPTED', schema: errorResponses[400].schema },
      410: { description: 'CUSTOMER_DELETED: the account belongs to a deleted customer', schema: errorResponses[400].schema },
      404: errorResponses[404],
    },
    handler: async ({ em, caller, params, body, deps, idempotencyKey }) => {
      const found = await findInternalAccount(em, caller.platformId, params.accountId);
      if (!found) throw ApiError.notFound('Internal account');
      if (found.account.status !== 'ACTIVE') throw ApiError.conflict('INVALID_STATE_TRANSITION', `The account is ${found.account.status}`);
      if (found.account.customerId) await assertMayMoveMoney(em, caller.platformId, found.account.customerId);
      const amount = toMinor(body.amount);
      // With an Idempotency-Key the transaction id (= workflow id) is derived from it, so even a
      // retry that bypassed the idempotency store cannot start a second payment.
      const transactionId = idempotencyKey ? derivedId('Transaction', caller.platformId, 'sandbox-fund', idempotencyKey) : newId('Transaction');
      const customerId = found.account.customerId ?? null;
      const start = deps.temporal.workflow.start<typeof incomingPayment>('incomingPayment', {
        workflowId: transactionId,
        taskQueue: deps.taskQueue ?? TASK_QUEUE,
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        args: [
          {
            transactionId,
            platformId: caller.platformId,
            environment: caller.environment,
            customerId,
            internalAccountId: found.account.id,
            currency: found.account.currency,
            amount: amount.toString(),
            source: { sourceType: 'SANDBOX_FUNDING' },
          },
        ],
        typedSearchAttributes: [
          { key: PlatformIdKey, value: caller.platformId },
          { key: TransactionIdKey, value: transactionId },
          { key: AccountIdKey, value: found.account.id },
          { key: BusinessStatusKey, value: 'PENDING' },
          ...(customerId ? [{ key: CustomerIdKey, value: customerId }] : []),
        ],
      });
      // A finished payment with this id (a retry after its idempotency record expired) is not run
      // again: the retry gets the outcome of the one payment there is.
      const handle = await start.catch((err: unknown) => {
        if (err instanceof WorkflowExecutionAlreadyStartedError) return deps.temporal.workflow.getHandle<typeof incomingPayment>(transactionId);
        throw err;
      });
      try {
        await handle.result();
      } catch (err) {
        if (err instanceof WorkflowFailedError && err.cause instanceof ApplicationFailure && err.cause.type) {
          throw new ApiError(err.cause.type === 'ACCOUNT_NOT_FOUND' ? 404 : 400, err.cause.type, err.cause.message);
        }
        throw err;
      }
      const after = await findInternalAccount(em.fork(), caller.platformId, found.account.id);
      return { status: 200, body: internalAccountView(after!.account, after!.ledger) };
    },
  }),
];

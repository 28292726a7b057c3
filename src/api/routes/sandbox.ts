import { WorkflowFailedError, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { ApiError } from '../../domain/errors';
import { derivedId, newId } from '../../domain/ids';
import { toMinor } from '../../domain/money';
import { findInternalAccount } from '../../services/internal-accounts';
import { internalAccountView } from '../../services/internal-account-views';
import { AccountIdKey, BusinessStatusKey, CustomerIdKey, PlatformIdKey, TransactionIdKey } from '../../temporal/search-attributes';
import { TASK_QUEUE } from '../../temporal/task-queue';
import type { incomingPayment } from '../../../workflows/incoming-payment';
import { defineRoute } from '../route';
import { InternalAccountSchema, SandboxFundRequestSchema } from '../schemas/accounts';
import { errorResponses, IdParam } from '../schemas/common';

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
      403: { description: 'A production token was used', schema: errorResponses[400].schema },
      404: errorResponses[404],
    },
    handler: async ({ em, caller, params, body, deps, idempotencyKey }) => {
      const found = await findInternalAccount(em, caller.platformId, params.accountId);
      if (!found) throw ApiError.notFound('Internal account');
      if (found.account.status !== 'ACTIVE') throw ApiError.conflict('INVALID_STATE_TRANSITION', `The account is ${found.account.status}`);
      const amount = toMinor(body.amount);
      // With an Idempotency-Key the transaction id (= workflow id) is derived from it, so even a
      // retry that bypassed the idempotency store cannot start a second payment.
      const transactionId = idempotencyKey ? derivedId('Transaction', caller.platformId, 'sandbox-fund', idempotencyKey) : newId('Transaction');
      const customerId = found.account.customerId ?? null;
      const handle = await deps.temporal.workflow.start<typeof incomingPayment>('incomingPayment', {
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

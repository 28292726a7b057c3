import { DomainError } from '../../../domain/errors';
import { derivedId, newId } from '../../../domain/ids';
import { toMinor } from '../../../domain/money';
import { assertCustomerMayMoveMoney } from '../../customers/services/money-movement-policy';
import { runIncomingPayment } from '../../../temporal/starters/incoming-payment';
import { findInternalAccount } from '../../ledger/services/internal-accounts';
import { internalAccountView } from '../../ledger/services/internal-account-views';
import { defineRoute } from '../../../api/route';
import { InternalAccountSchema, SandboxFundRequestSchema } from '../../ledger/api/schemas';
import { errorResponses, IdParam } from '../../../api/schemas/common';

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
];

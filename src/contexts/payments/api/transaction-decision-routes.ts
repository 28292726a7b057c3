import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { z } from '../../../api/openapi-registry';
import { decideTransactionForPlatform } from '../services/transaction-decisions';
import { currentTransactionView } from '../services/transaction-views';
import { TransactionSchema } from '../schemas/transaction-schemas';

const ApprovePaymentRequestSchema = z
  .object({
    receiverCustomerInfo: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'The receiver information the INCOMING_PAYMENT.PENDING webhook asked for (requestedReceiverCustomerInfoFields)' }),
  })
  .strict()
  .openapi('ApprovePaymentRequest');

const RejectPaymentRequestSchema = z
  .object({
    reason: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .openapi({ description: "The platform's reason, kept for its own purposes", example: 'RESTRICTED_JURISDICTION' }),
  })
  .strict()
  .openapi('RejectPaymentRequest');

const decisionResponses = (done: string) => ({
  200: { description: `${done}: the transaction as the decision left it`, schema: TransactionSchema },
  400: errorResponses[400],
  401: errorResponses[401],
  404: errorResponses[404],
  409: {
    description:
      'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL: the transaction waits for no decision of the platform (decided already, timed out, or never pending)',
    schema: errorResponses[400].schema,
  },
});

/** The platform's decisions on its pending transactions; each kind of wait is a registered TransactionDecider. */
export const transactionDecisionRoutes = [
  defineRoute({
    method: 'post',
    path: '/transactions/:transactionId/approve',
    permission: 'TRANSACT',
    operationId: 'approvePendingPayment',
    summary: 'Approve a pending incoming payment',
    description:
      'Approve a pending transaction: an incoming UMA payment the platform acknowledged with 202, or a transaction an agent action holds for approval',
    tags: ['Transactions'],
    params: IdParam('transactionId'),
    body: ApprovePaymentRequestSchema,
    idempotent: true,
    responses: decisionResponses('Approved'),
    handler: async ({ em, caller, params, body, deps, idempotencyKey }) => {
      const id = await decideTransactionForPlatform(
        em,
        deps,
        caller.platformId,
        params.transactionId,
        { decision: 'approve', body: body.receiverCustomerInfo ? { receiverCustomerInfo: body.receiverCustomerInfo } : {} },
        idempotencyKey,
      );
      return { status: 200, body: await currentTransactionView(em, id) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/transactions/:transactionId/reject',
    permission: 'TRANSACT',
    operationId: 'rejectPendingPayment',
    summary: 'Reject a pending incoming payment',
    description:
      'Reject a pending transaction: an incoming UMA payment the platform acknowledged with 202, or a transaction an agent action holds for approval',
    tags: ['Transactions'],
    params: IdParam('transactionId'),
    body: RejectPaymentRequestSchema,
    idempotent: true,
    responses: decisionResponses('Rejected'),
    handler: async ({ em, caller, params, body, deps, idempotencyKey }) => {
      const id = await decideTransactionForPlatform(
        em,
        deps,
        caller.platformId,
        params.transactionId,
        { decision: 'reject', body: body.reason ? { reason: body.reason } : {} },
        idempotencyKey,
      );
      return { status: 200, body: await currentTransactionView(em, id) };
    },
  }),
];

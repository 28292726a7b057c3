import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { DomainError } from '../../../domain/errors';
import { completeLiveness } from '../starters/external-account-verification';
import { ExternalAccount } from '../entities';
import { verificationInput } from '../services/verification-input';
import { LivenessOutcomeSchema } from './schemas';

export const sandboxRoutes = [
  defineRoute({
    method: 'post',
    path: '/sandbox/external-accounts/:externalAccountId/liveness',
    operationId: 'sandboxCompleteLiveness',
    summary: 'Simulate a liveness check result',
    description: "Sandbox: finish the hosted liveness flow of a wallet's LIVENESS challenge, as the user would",
    tags: ['Sandbox'],
    sandboxOnly: true,
    params: IdParam('externalAccountId'),
    body: LivenessOutcomeSchema,
    responses: {
      202: { description: 'Accepted: the outcome arrives by EXTERNAL_ACCOUNT.STATUS_UPDATED webhook (or by polling the account)' },
      401: errorResponses[401],
      404: errorResponses[404],
      409: { description: 'CONFLICT: no LIVENESS challenge is outstanding', schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, params, body, deps }) => {
      const account = await em.findOne(ExternalAccount, { id: params.externalAccountId, platformId: caller.platformId, deletedAt: null });
      if (!account) throw DomainError.notFound('External account');
      const challenge = account.ownershipChallenge;
      if (challenge?.method !== 'LIVENESS' || challenge.state !== 'OPEN')
        throw new DomainError('CONFLICT', 'No LIVENESS challenge is outstanding for this account');
      await completeLiveness(
        deps.temporal,
        verificationInput(account),
        { challengeId: challenge.challengeId, passed: body.result === 'PASSED' },
        { taskQueue: deps.taskQueue },
      );
      return { status: 202 };
    },
  }),
];

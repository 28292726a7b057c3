import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { completeSandboxLiveness } from '../services/ownership-challenges';
import { LivenessOutcomeSchema } from '../schemas/external-account-schemas';

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
      await completeSandboxLiveness(em, deps, caller.platformId, params.externalAccountId, body.result === 'PASSED');
      return { status: 202 };
    },
  }),
];

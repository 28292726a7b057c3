import { z } from '../../../api/openapi-registry';
import type { ApiDeps } from '../../../api/context';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { ScaChallengeSchema } from '../../sca';
import { confirmTrustChange, startTrustChange, type TrustChange, type TrustDeps } from '../services/beneficiary-trust';

const TAGS = ['Strong Customer Authentication'];
const AccountIdParams = IdParam('externalAccountId');
const schemaOf = errorResponses[400].schema;

const BeneficiaryTrustStartSchema = z.object({ scaChallenge: ScaChallengeSchema.optional() }).openapi('BeneficiaryTrustStart');
const BeneficiaryTrustConfirmRequestSchema = z
  .object({
    challengeId: z.string().max(200).nullable().optional().openapi({ description: 'The challenge the start answered (omit for a TOTP code)' }),
    code: z.string().max(64).nullable().optional().openapi({ description: 'SMS_OTP or TOTP code (sandbox: 123456)' }),
    passkeyAssertion: z.record(z.string(), z.unknown()).nullable().optional(),
    origin: z.string().max(2048).nullable().optional(),
  })
  .strict()
  .openapi('BeneficiaryTrustConfirmRequest');
const BeneficiaryTrustConfirmSchema = z.object({ trusted: z.boolean() }).openapi('BeneficiaryTrustConfirm');

const trustDeps = (deps: ApiDeps): TrustDeps => ({ masterKey: deps.config.masterKey, ...(deps.scaCodeSender ? { sender: deps.scaCodeSender } : {}) });

/** Start and confirm for one direction: trust (payments to it skip the per-transaction challenge) or untrust. */
function trustRoutes(change: TrustChange) {
  const verb = change === 'TRUST' ? 'trust' : 'untrust';
  const Verb = change === 'TRUST' ? 'Trust' : 'Untrust';
  const notSca = { description: 'CONFLICT: the customer is outside SCA regions, or the beneficiary is already in that state', schema: schemaOf };
  return [
    defineRoute({
      method: 'post',
      path: `/customers/external-accounts/:externalAccountId/${verb}`,
      operationId: change === 'TRUST' ? 'startBeneficiaryTrust' : 'startBeneficiaryUntrust',
      summary: change === 'TRUST' ? 'Start trusting a beneficiary' : 'Start untrusting a beneficiary',
      description: `${Verb} a customer's external account: answers the SCA challenge to confirm with POST …/${verb}/confirm. For customers outside SCA regions, 409.`,
      tags: TAGS,
      params: AccountIdParams,
      responses: {
        200: { description: 'The challenge to answer', schema: BeneficiaryTrustStartSchema },
        401: errorResponses[401],
        404: errorResponses[404],
        409: notSca,
      },
      handler: async ({ em, caller, params, deps }) => ({
        status: 200 as const,
        body: await startTrustChange(em, caller.platformId, params.externalAccountId, change, trustDeps(deps)),
      }),
    }),
    defineRoute({
      method: 'post',
      path: `/customers/external-accounts/:externalAccountId/${verb}/confirm`,
      operationId: change === 'TRUST' ? 'confirmBeneficiaryTrust' : 'confirmBeneficiaryUntrust',
      summary: change === 'TRUST' ? 'Confirm trusting a beneficiary' : 'Confirm untrusting a beneficiary',
      description: `Submit the customer's SCA proof (the challenge's code with its challengeId, or a TOTP code) to ${verb} the beneficiary. Sandbox code: 123456.`,
      tags: TAGS,
      params: AccountIdParams,
      body: BeneficiaryTrustConfirmRequestSchema,
      responses: {
        200: { description: `The beneficiary's trusted flag`, schema: BeneficiaryTrustConfirmSchema },
        400: { description: 'INVALID_INPUT: the proof is wrong, missing or expired (details.errors names the field)', schema: schemaOf },
        401: errorResponses[401],
        404: errorResponses[404],
        409: notSca,
        423: { description: "ACCOUNT_LOCKED: the customer's SCA login is locked after too many failed attempts", schema: schemaOf },
      },
      handler: async ({ em, caller, params, body, deps }) => ({
        status: 200 as const,
        body: await confirmTrustChange(em, caller.platformId, params.externalAccountId, change, body, trustDeps(deps)),
      }),
    }),
  ];
}

export const beneficiaryTrustRoutes = [...trustRoutes('TRUST'), ...trustRoutes('UNTRUST')];

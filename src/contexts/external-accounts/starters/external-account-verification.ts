import { WithStartWorkflowOperation, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { SignatureOf } from '../../../temporal/workflow-kind';
import {
  EXTERNAL_ACCOUNT_VERIFICATION_WORKFLOW,
  type ExternalAccountVerificationInput,
  livenessCompletedSignal,
  openOwnershipChallengeUpdate,
  type OwnershipChallengeView,
  type OwnershipMethodValue,
  submitOwnershipSignatureUpdate,
} from '../../../../workflows/external-accounts/definitions';
import { DomainError } from '../../../domain/errors';
import { rethrowAsDomainError } from '../../../temporal/failures';
import { AccountIdKey, CustomerIdKey, PlatformIdKey } from '../../../temporal/search-attributes';
import { joiningStart } from '../../../temporal/joining-start';

/**
 * The verification workflow of one external account (workflow id = account id). Every way in
 * starts it when it is not running and otherwise joins the run there is, so a repeat never
 * starts a second verification, and a finished run may be followed by a new one (a new challenge).
 */
function operation(input: ExternalAccountVerificationInput, taskQueue?: string) {
  return joiningStart({
    workflow: EXTERNAL_ACCOUNT_VERIFICATION_WORKFLOW,
    workflowId: input.externalAccountId,
    taskQueue,
    reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    args: [input] as [ExternalAccountVerificationInput],
    searchAttributes: [
      { key: PlatformIdKey, value: input.platformId },
      { key: AccountIdKey, value: input.externalAccountId },
      ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : []),
    ],
  });
}

/** Starts the checks a registration left pending (a PENDING name check, a US validation window). */
export async function startExternalAccountVerification(
  client: Client,
  input: ExternalAccountVerificationInput,
  options: { taskQueue?: string } = {},
): Promise<void> {
  await client.workflow.start<SignatureOf<typeof EXTERNAL_ACCOUNT_VERIFICATION_WORKFLOW>>(
    EXTERNAL_ACCOUNT_VERIFICATION_WORKFLOW.type,
    operation(input, options.taskQueue),
  );
}

/** POST …/challenge: the challenge the wallet must answer. */
export async function openOwnershipChallenge(
  client: Client,
  input: ExternalAccountVerificationInput,
  request: { method: OwnershipMethodValue; livenessLink: string },
  options: { taskQueue?: string } = {},
): Promise<OwnershipChallengeView> {
  const startWorkflowOperation = new WithStartWorkflowOperation<SignatureOf<typeof EXTERNAL_ACCOUNT_VERIFICATION_WORKFLOW>>(
    EXTERNAL_ACCOUNT_VERIFICATION_WORKFLOW.type,
    operation(input, options.taskQueue),
  );
  try {
    return await client.workflow.executeUpdateWithStart(openOwnershipChallengeUpdate, { args: [request], startWorkflowOperation });
  } catch (err) {
    return rethrowAsDomainError(err);
  }
}

/**
 * POST …/verify: the account after a valid signature. A wrong signature or an expired challenge
 * has already made the account UNVERIFIED and is answered 400; no outstanding signature challenge
 * is 409.
 */
export async function submitOwnershipSignature(
  client: Client,
  input: ExternalAccountVerificationInput,
  signature: { signature: string; signatureScheme?: 'bip137' | 'electrum' },
  options: { taskQueue?: string } = {},
): Promise<unknown> {
  const startWorkflowOperation = new WithStartWorkflowOperation<SignatureOf<typeof EXTERNAL_ACCOUNT_VERIFICATION_WORKFLOW>>(
    EXTERNAL_ACCOUNT_VERIFICATION_WORKFLOW.type,
    operation(input, options.taskQueue),
  );
  let result;
  try {
    result = await client.workflow.executeUpdateWithStart(submitOwnershipSignatureUpdate, { args: [signature], startWorkflowOperation });
  } catch (err) {
    return rethrowAsDomainError(err);
  }
  if (result.outcome === 'PASSED') return result.account;
  if (result.outcome === 'NO_CHALLENGE')
    throw new DomainError('CONFLICT', 'No WALLET_SIGNATURE challenge is outstanding for this account; start one with POST …/challenge');
  const reason = result.reason ?? 'the signature does not verify';
  throw DomainError.invalidInput(
    [{ field: 'signature', constraint: result.outcome === 'EXPIRED' ? 'challengeExpired' : 'signature', message: reason }],
    `Ownership not verified: ${reason}. The account is UNVERIFIED; start a new challenge to retry.`,
  );
}

/** The sandbox's stand-in for the end of the hosted liveness flow. */
export async function completeLiveness(
  client: Client,
  input: ExternalAccountVerificationInput,
  outcome: { challengeId: string; passed: boolean },
  options: { taskQueue?: string } = {},
): Promise<void> {
  await client.workflow.signalWithStart<SignatureOf<typeof EXTERNAL_ACCOUNT_VERIFICATION_WORKFLOW>, [{ challengeId: string; passed: boolean }]>(
    EXTERNAL_ACCOUNT_VERIFICATION_WORKFLOW.type,
    {
      ...operation(input, options.taskQueue),
      signal: livenessCompletedSignal,
      signalArgs: [outcome],
    },
  );
}

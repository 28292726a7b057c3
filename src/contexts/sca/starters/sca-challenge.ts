import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { SignatureOf } from '../../../temporal/workflow-kind';
import {
  authorizeChallengeUpdate,
  type ChallengeAuthorized,
  resendChallengeUpdate,
  SCA_CHALLENGE_WORKFLOW,
  type ScaChallengeInput,
  type ScaProof,
} from '../../../../workflows/sca/definitions';
import { DomainError } from '../../../domain/errors';
import { BusinessStatusKey, CustomerIdKey, PlatformIdKey, QuoteIdKey, TransactionIdKey } from '../../../temporal/search-attributes';
import { joiningStart, sendUpdate } from '../../../temporal/joining-start';

/**
 * The one starter of the scaChallenge workflow (workflow id = challenge id; the customer, quote
 * and transaction are search attributes). A start while it runs joins it; a challenge's workflow
 * never runs twice (it decided its payment's outcome once).
 */
function operation(input: ScaChallengeInput, taskQueue?: string) {
  return joiningStart({
    workflow: SCA_CHALLENGE_WORKFLOW,
    workflowId: input.challengeId,
    taskQueue,
    reuse: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    args: [input] as [ScaChallengeInput],
    searchAttributes: [
      { key: PlatformIdKey, value: input.platformId },
      { key: CustomerIdKey, value: input.customerId },
      { key: QuoteIdKey, value: input.quoteId },
      { key: TransactionIdKey, value: input.transactionId },
      { key: BusinessStatusKey, value: 'PENDING' },
    ],
  });
}

const withStart = (input: ScaChallengeInput, taskQueue?: string) =>
  new WithStartWorkflowOperation<SignatureOf<typeof SCA_CHALLENGE_WORKFLOW>>(SCA_CHALLENGE_WORKFLOW.type, operation(input, taskQueue));

/** The challenge ended already (authorized, void or lapsed): nothing is pending any more. */
function ended(err: unknown): never {
  if (err instanceof WorkflowExecutionAlreadyStartedError || (err instanceof Error && err.cause instanceof WorkflowExecutionAlreadyStartedError))
    throw new DomainError('CONFLICT', 'The challenge has ended: the quote has no pending challenge to authorize');
  throw err;
}

/** Starts the challenge's workflow (its lifetime on a durable timer), or joins it. */
export async function startScaChallenge(client: Client, input: ScaChallengeInput, options: { taskQueue?: string } = {}): Promise<void> {
  try {
    await client.workflow.start<SignatureOf<typeof SCA_CHALLENGE_WORKFLOW>>(SCA_CHALLENGE_WORKFLOW.type, operation(input, options.taskQueue));
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** POST /quotes/{id}/authorize: the proof, judged in the challenge's workflow (started if the process died before it was). */
export async function authorizeChallenge(
  client: Client,
  input: ScaChallengeInput,
  proof: ScaProof,
  options: { taskQueue?: string } = {},
): Promise<ChallengeAuthorized> {
  return sendUpdate(() =>
    client.workflow.executeUpdateWithStart(authorizeChallengeUpdate, { args: [proof], startWorkflowOperation: withStart(input, options.taskQueue) }),
  ).catch(ended);
}

/** POST /quotes/{id}/authorize/resend. */
export async function resendChallenge(client: Client, input: ScaChallengeInput, options: { taskQueue?: string } = {}): Promise<void> {
  await sendUpdate(() =>
    client.workflow.executeUpdateWithStart(resendChallengeUpdate, { args: [], startWorkflowOperation: withStart(input, options.taskQueue) }),
  ).catch(ended);
}

import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { CustomerActivities } from '../../activities/customers';
import { ERROR } from '../../src/domain/errors';
import { BusinessStatusKey, CustomerIdKey } from '../../src/temporal/search-attributes';
import { announceEvents } from '../webhooks/announce';
import {
  submitVerification,
  VERIFICATION_ALREADY_DECIDED,
  verificationStatusQuery,
  type CustomerVerificationInput,
  type CustomerVerificationResult,
  type VerificationSnapshot,
  type VerificationStatusValue,
} from './definitions';

const { evaluateVerificationSubmission, resolveVerification } = proxyActivities<CustomerActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: [ERROR.VERIFICATION_NOT_FOUND] },
});

/** How long a verification waiting for a corrected packet keeps its workflow open. */
const IDLE_TIMEOUT = '30 days';

/**
 * The KYC/KYB verification of one customer (workflow id = verification id). Each POST
 * /verifications is a `submitVerification` update, evaluated at once and answered with the
 * verification: RESOLVE_ERRORS leaves the workflow waiting for the next submission; a decision
 * made at once ends it; a decision made "later" (IN_PROGRESS, PENDING_MANUAL_REVIEW) waits on a
 * durable timer, then is recorded (accounts provisioned on approval). Every status change is
 * announced by webhook workflows of its own.
 */
export async function customerVerification(input: CustomerVerificationInput): Promise<CustomerVerificationResult> {
  let submissions = 0;
  let busy = false;
  let decided = false;
  let pending: 'APPROVED' | 'REJECTED' | null = null;
  let status: VerificationStatusValue | null = null;
  let last: VerificationSnapshot | null = null;

  const refuse = () =>
    ApplicationFailure.create({ message: `The verification is already ${status ?? 'decided'}`, type: VERIFICATION_ALREADY_DECIDED, nonRetryable: true });

  const track = (snapshot: VerificationSnapshot) => {
    last = snapshot;
    if (snapshot.verificationStatus !== status) {
      status = snapshot.verificationStatus;
      upsertSearchAttributes([{ key: BusinessStatusKey, value: status }]);
    }
  };

  setHandler(verificationStatusQuery, () => status);
  setHandler(
    submitVerification,
    async () => {
      await condition(() => !busy);
      if (decided) throw refuse();
      // Under review: the packet is with the provider; a repeat submission changes nothing.
      if (pending && last) return last;
      busy = true;
      try {
        submissions += 1;
        const result = await evaluateVerificationSubmission({
          verificationId: input.verificationId,
          platformId: input.platformId,
          customerId: input.customerId,
          environment: input.environment,
          submissionKey: `${workflowInfo().runId}:${submissions}`,
        });
        if (result.refused || !result.verification) {
          decided = true;
          throw ApplicationFailure.create({ message: result.refused ?? 'refused', type: VERIFICATION_ALREADY_DECIDED, nonRetryable: true });
        }
        track(result.verification as VerificationSnapshot);
        pending = result.pending?.outcome ?? null;
        decided = result.terminal;
        await announce(input, result.events);
        return last!;
      } finally {
        busy = false;
      }
    },
    {
      validator: () => {
        if (decided) throw refuse();
      },
    },
  );

  const historyTooLong = () => !busy && pending === null && workflowInfo().continueAsNewSuggested;
  for (;;) {
    const woke = await condition(() => decided || (pending !== null && !busy) || historyTooLong(), IDLE_TIMEOUT);
    if (decided) break;
    if (woke && pending !== null) {
      await sleep(input.resolutionDelaySeconds * 1000);
      const result = await resolveVerification({ verificationId: input.verificationId, environment: input.environment });
      track(result.verification as VerificationSnapshot);
      pending = null;
      decided = true;
      await announce(input, result.events);
      break;
    }
    // Many resubmissions: carry on in a fresh run (submission keys include the run id).
    // Idle: end the run; the next POST /verifications starts a new one with the same id.
    await condition(allHandlersFinished);
    if (pending !== null || decided) continue;
    if (woke) await continueAsNew<typeof customerVerification>(input);
    break;
  }
  await condition(allHandlersFinished);
  return { verificationId: input.verificationId, verificationStatus: status, submissions };
}

function announce(input: CustomerVerificationInput, events: { eventId: string; type: string }[]): Promise<void> {
  return announceEvents(input.platformId, events, [{ key: CustomerIdKey, value: input.customerId }]);
}

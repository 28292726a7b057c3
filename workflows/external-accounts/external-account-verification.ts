import { allHandlersFinished, condition, proxyActivities, setHandler, sleep, uuid4 } from '@temporalio/workflow';
import type { ExternalAccountActivities } from '../../activities/external-accounts';
import { ERROR } from '../../src/domain/errors';
import { AccountIdKey, CustomerIdKey } from '../../src/temporal/search-attributes';
import { deliverEvents } from '../webhooks/announce';
import { oneStepAtATime } from '../one-step-at-a-time';
import {
  livenessCompletedSignal,
  openOwnershipChallengeUpdate,
  submitOwnershipSignatureUpdate,
  type ExternalAccountVerificationInput,
  type OwnershipSignatureResult,
} from './definitions';

const activities = proxyActivities<ExternalAccountActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: [ERROR.CONFLICT, ERROR.NOT_FOUND] },
});

/** How long a wallet has to sign a challenge, and a user to finish the hosted liveness flow. */
export const WALLET_SIGNATURE_CHALLENGE_MINUTES = 15;
export const LIVENESS_CHALLENGE_MINUTES = 30;

type Event = { eventId: string; type: string };

/**
 * The verifications of one external account (workflow id = the account id). Started at
 * registration when the rail answers later — a PENDING name check, a US account's micro-entry
 * window — each a durable timer; and by the first ownership challenge of a self-custody wallet
 * (update-with-start), after which it holds the challenge until it is answered or expires. Every
 * status change is written by an activity together with its webhook event, and the events are
 * delivered from the main loop, so an update is answered without waiting for a receiver.
 */
export async function externalAccountVerification(input: ExternalAccountVerificationInput): Promise<void> {
  const accountId = input.externalAccountId;
  const outbox: Event[] = [];
  const liveness: { challengeId: string; passed: boolean }[] = [];
  const expired = new Set<string>();
  // An object, so that handlers and the loop share it without the compiler narrowing it away.
  const open: { challengeId: string | null } = { challengeId: null };
  const steps = oneStepAtATime();
  const exclusively = <T>(step: () => Promise<T>) => steps.run(step);

  setHandler(openOwnershipChallengeUpdate, ({ method, livenessLink }) =>
    exclusively(async () => {
      const challengeId = uuid4();
      const minutes = method === 'WALLET_SIGNATURE' ? WALLET_SIGNATURE_CHALLENGE_MINUTES : LIVENESS_CHALLENGE_MINUTES;
      // The activity stamps expiresAt; this timer starts after it, so it never fires early.
      const opened = await activities.openOwnershipChallenge({ accountId, challengeId, method, validForMinutes: minutes, livenessLink });
      open.challengeId = challengeId;
      void sleep(minutes * 60_000).then(() => expired.add(challengeId));
      outbox.push(...opened.events);
      return opened.challenge;
    }),
  );

  setHandler(submitOwnershipSignatureUpdate, (args) =>
    exclusively(async (): Promise<OwnershipSignatureResult> => {
      const result = await activities.submitOwnershipSignature({ accountId, ...args, attemptId: uuid4() });
      if (result.outcome !== 'NO_CHALLENGE') open.challengeId = null;
      outbox.push(...result.events);
      return { outcome: result.outcome, ...(result.reason ? { reason: result.reason } : {}), account: result.account };
    }),
  );

  setHandler(livenessCompletedSignal, (outcome) => {
    liveness.push(outcome);
  });

  const deliver = async () => {
    const events = outbox.splice(0);
    const attributes = [{ key: AccountIdKey, value: accountId }, ...(input.customerId ? [{ key: CustomerIdKey, value: input.customerId }] : [])];
    if (events.length > 0) await deliverEvents(input.platformId, events, attributes);
  };

  const afterDelay = async (seconds: number | undefined, step: () => Promise<{ events: Event[] }>) => {
    if (seconds === undefined) return;
    await sleep(seconds * 1000);
    const { events } = await exclusively(step);
    outbox.push(...events);
  };

  // The rail's late answers, each on its own durable timer, delivered as they come.
  let checksDone = false;
  const checks = Promise.all([
    afterDelay(input.nameCheckAfterSeconds, () => activities.resolveNameCheck({ accountId })),
    afterDelay(input.bankValidationAfterSeconds, () => activities.completeBankValidation({ accountId })),
  ]).then(() => {
    checksDone = true;
  });

  const challengeExpired = () => open.challengeId !== null && expired.has(open.challengeId);
  const idle = () => checksDone && open.challengeId === null && outbox.length === 0 && liveness.length === 0;
  for (;;) {
    await condition(() => outbox.length > 0 || liveness.length > 0 || challengeExpired() || idle());
    await condition(() => !steps.busy);
    if (challengeExpired()) {
      const challengeId = open.challengeId!;
      open.challengeId = null;
      outbox.push(...(await activities.expireOwnershipChallenge({ accountId, challengeId })).events);
    }
    for (const outcome of liveness.splice(0)) {
      const recorded = await exclusively(() => activities.recordLivenessOutcome({ accountId, ...outcome }));
      outbox.push(...recorded.events);
      if (open.challengeId === outcome.challengeId) open.challengeId = null;
    }
    await deliver();
    if (idle()) {
      await condition(allHandlersFinished);
      if (idle()) break;
    }
  }
  await checks;
}

import { allHandlersFinished, condition, proxyActivities, setHandler, sleep, uuid4 } from '@temporalio/workflow';
import type { ExternalAccountActivities } from '../../activities/external-accounts';
import { addBankingDays } from '../../src/contexts/external-accounts/domain/banking-days';
import { ERROR } from '../../src/domain/errors';
import { AccountIdKey, CustomerIdKey } from '../../src/temporal/search-attributes';
import { deliverEvents } from '../webhooks/announce';
import {
  livenessCompletedSignal,
  openOwnershipChallengeUpdate,
  submitOwnershipSignatureUpdate,
  type ExternalAccountVerificationInput,
  type OwnershipSignatureResult,
} from '../definitions';

const activities = proxyActivities<ExternalAccountActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: [ERROR.CONFLICT, ERROR.NOT_FOUND] },
});

/** How long a wallet has to sign a challenge, and a user to finish the hosted liveness flow. */
export const WALLET_SIGNATURE_CHALLENGE_MINUTES = 15;
export const LIVENESS_CHALLENGE_MINUTES = 30;

type Event = { eventId: string; type: string };

/** The micro-entry window: banking days counted from the workflow's clock, or sandbox seconds. */
function bankValidationWindowSeconds(input: ExternalAccountVerificationInput): number | undefined {
  if (input.bankValidationBankingDays === undefined) return input.bankValidationAfterSeconds;
  const now = new Date();
  return Math.ceil((addBankingDays(now, input.bankValidationBankingDays).getTime() - now.getTime()) / 1000);
}

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
  // An object, so that handlers and the loop share it without the compiler narrowing it away.
  const open: { challenge: { challengeId: string; expiresAtMs: number } | null } = { challenge: null };
  let busy = false;

  const exclusively = async <T>(step: () => Promise<T>): Promise<T> => {
    await condition(() => !busy);
    busy = true;
    try {
      return await step();
    } finally {
      busy = false;
    }
  };

  setHandler(openOwnershipChallengeUpdate, ({ method, livenessLink }) =>
    exclusively(async () => {
      const challengeId = uuid4();
      const minutes = method === 'WALLET_SIGNATURE' ? WALLET_SIGNATURE_CHALLENGE_MINUTES : LIVENESS_CHALLENGE_MINUTES;
      const expiresAt = new Date(Date.now() + minutes * 60_000).toISOString();
      const opened = await activities.openOwnershipChallenge({ accountId, challengeId, method, expiresAt, livenessLink });
      open.challenge = { challengeId, expiresAtMs: Date.parse(expiresAt) };
      outbox.push(...opened.events);
      return opened.challenge;
    }),
  );

  setHandler(submitOwnershipSignatureUpdate, (args) =>
    exclusively(async (): Promise<OwnershipSignatureResult> => {
      const result = await activities.submitOwnershipSignature({ accountId, ...args, now: new Date().toISOString() });
      if (result.outcome !== 'NO_CHALLENGE') open.challenge = null;
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
    afterDelay(bankValidationWindowSeconds(input), () => activities.completeBankValidation({ accountId })),
  ]).then(() => {
    checksDone = true;
  });

  for (;;) {
    const current = open.challenge;
    const wake = () => outbox.length > 0 || liveness.length > 0 || open.challenge !== current || (checksDone && !current);
    const woke = current ? await condition(wake, Math.max(0, current.expiresAtMs - Date.now())) : (await condition(wake), true);
    await condition(() => !busy);
    if (!woke && open.challenge === current && current) {
      const expired = await activities.expireOwnershipChallenge({ accountId, challengeId: current.challengeId });
      outbox.push(...expired.events);
      open.challenge = null;
    }
    for (const outcome of liveness.splice(0)) {
      const recorded = await exclusively(() => activities.recordLivenessOutcome({ accountId, ...outcome }));
      outbox.push(...recorded.events);
      if (open.challenge?.challengeId === outcome.challengeId) open.challenge = null;
    }
    await deliver();
    if (checksDone && !open.challenge && outbox.length === 0 && liveness.length === 0) {
      await condition(allHandlersFinished);
      if (!open.challenge && outbox.length === 0 && liveness.length === 0) break;
    }
  }
  await checks;
  await deliver();
}

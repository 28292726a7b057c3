import { allHandlersFinished, condition, proxyActivities, setHandler, sleep, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import type { InvitationActivities } from '../../activities/invitations';
import { ERROR } from '../../src/domain/errors';
import { BusinessStatusKey, CustomerIdKey } from '../../src/temporal/search-attributes';
import { deliverEvents } from '../webhooks/announce';
import { oneStepAtATime } from '../one-step-at-a-time';
import { cancelInvitationUpdate, claimInvitationUpdate, type InvitationLifecycleInput } from './definitions';

const activities = proxyActivities<InvitationActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: [ERROR.NOT_FOUND, ERROR.INVITATION_NOT_FOUND] },
});

/**
 * One invitation's lifecycle (workflow id = its code), started when it is created. A claim and a
 * cancellation arrive as updates and are answered with the invitation; an expiry is a durable
 * timer at expiresAt. Steps run one at a time and each is a locked database transaction, so
 * exactly one of claim, cancel and expiry wins. The claim's INVITATION.CLAIMED event is delivered
 * from here, after the caller has its answer. The run ends once the invitation is settled.
 */
export async function invitationLifecycle(input: InvitationLifecycleInput): Promise<{ status: string }> {
  const { code } = input;
  const outbox: { eventId: string; type: string }[] = [];
  const state: { status: string; due: boolean } = { status: 'PENDING', due: false };
  const steps = oneStepAtATime();
  const settle = (status: string) => {
    state.status = status;
    upsertSearchAttributes([{ key: BusinessStatusKey, value: status }]);
  };

  setHandler(claimInvitationUpdate, ({ inviteeUma }) =>
    steps.run(async () => {
      const claimed = await activities.claimInvitation({ code, inviteeUma, stepId: uuid4() });
      settle(claimed.invitation.status);
      outbox.push(...claimed.events);
      return claimed.invitation;
    }),
  );
  setHandler(cancelInvitationUpdate, () =>
    steps.run(async () => {
      const cancelled = await activities.cancelInvitation({ code, stepId: uuid4() });
      settle(cancelled.invitation.status);
      return cancelled.invitation;
    }),
  );

  if (input.expiresInMs !== null) {
    void sleep(Math.max(input.expiresInMs, 1)).then(() => {
      state.due = true;
    });
  }

  for (;;) {
    await condition(() => outbox.length > 0 || state.status !== 'PENDING' || state.due);
    await condition(() => !steps.busy);
    if (state.status === 'PENDING' && state.due) settle((await steps.run(() => activities.expireInvitation({ code }))).status);
    const events = outbox.splice(0);
    if (events.length > 0) await deliverEvents(input.platformId, events, [{ key: CustomerIdKey, value: input.inviterCustomerId }]);
    if (state.status !== 'PENDING' && outbox.length === 0) {
      await condition(allHandlersFinished);
      if (outbox.length === 0) break;
    }
  }
  return { status: state.status };
}

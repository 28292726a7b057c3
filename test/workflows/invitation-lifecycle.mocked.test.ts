import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { randomBytes } from 'node:crypto';
import type { invitationLifecycle } from '../../workflows/invitations/invitation-lifecycle';
import { cancelInvitationUpdate, claimInvitationUpdate, type InvitationLifecycleInput } from '../../workflows/invitations/definitions';
import { domainErrorFrom } from '../../src/temporal/failures';
import { quietTemporalRuntime, startMockedWorker, type MockedWorker } from '../support/bundled-worker';

// The invitationLifecycle state machine with in-memory activities on the time-skipping server:
// the expiry is a durable timer (days pass in no time), a claim or a cancellation before it ends
// the run without expiring, a refused claim leaves the timer running. The database-backed
// behaviour is covered by test/api/invitations.test.ts.

let env: TestWorkflowEnvironment;
let mocked: MockedWorker | undefined;
let taskQueue: string;
let calls: string[];
let delivered: string[];
let refuseClaim: string | null;

const view = (status: string) => ({ code: 'c', url: 'https://x/invite/c', status, inviterUma: '$a@x.example.com', createdAt: '2026-01-01T00:00:00.000Z' });

const activities = {
  async claimInvitation(input: { inviteeUma: string }) {
    calls.push(`claim:${input.inviteeUma}`);
    if (refuseClaim) throw ApplicationFailure.nonRetryable('refused', refuseClaim);
    return { invitation: { ...view('CLAIMED'), inviteeUma: input.inviteeUma }, events: [{ eventId: 'Webhook:claimed', type: 'INVITATION.CLAIMED' }] };
  },
  async cancelInvitation() {
    calls.push('cancel');
    return { invitation: view('CANCELLED'), events: [] };
  },
  async expireInvitation() {
    calls.push('expire');
    return { status: 'EXPIRED' };
  },
  async deliverWebhooks(input: { eventIds: string[] }) {
    delivered.push(...input.eventIds);
    return input.eventIds.map((eventId) => ({ eventId, outcome: { kind: 'DELIVERED' as const, status: 200 } }));
  },
};

beforeAll(() => quietTemporalRuntime());

beforeEach(async () => {
  mocked = await startMockedWorker(activities);
  ({ env, taskQueue } = mocked);
  calls = [];
  delivered = [];
  refuseClaim = null;
}, 120_000);

afterEach(async () => {
  await mocked?.stop();
});

const DAY = 86_400_000;

function start(expiresInMs: number | null) {
  const input: InvitationLifecycleInput = { code: randomBytes(8).toString('hex'), platformId: 'Platform:1', inviterCustomerId: 'Customer:1', expiresInMs };
  return env.client.workflow.start<typeof invitationLifecycle>('invitationLifecycle', { taskQueue, workflowId: input.code, args: [input] });
}

test('expires on its durable timer, days later, and only then', async () => {
  const handle = await start(7 * DAY);
  await env.sleep(6 * DAY);
  expect(calls).toEqual([]);
  await env.sleep(DAY + 1_000);
  expect(await handle.result()).toEqual({ status: 'EXPIRED' });
  expect(calls).toEqual(['expire']);
  expect(delivered).toEqual([]);
});

test('a claim before expiry wins: answered with the invitation, its event delivered, no expiry afterwards', async () => {
  const handle = await start(7 * DAY);
  const claimed = await handle.executeUpdate(claimInvitationUpdate, { args: [{ inviteeUma: '$b@y.example.com' }] });
  expect(claimed).toMatchObject({ status: 'CLAIMED', inviteeUma: '$b@y.example.com' });
  expect(await handle.result()).toEqual({ status: 'CLAIMED' });
  expect(delivered).toEqual(['Webhook:claimed']);
  expect(calls).toEqual(['claim:$b@y.example.com']);
});

test('a refused claim reaches the caller with its code and leaves the timer running', async () => {
  const handle = await start(DAY);
  refuseClaim = 'INVITATION_CANCELLED';
  const refusal = await handle.executeUpdate(claimInvitationUpdate, { args: [{ inviteeUma: '$b@y.example.com' }] }).then(
    () => undefined,
    (err: unknown) => domainErrorFrom(err),
  );
  expect(refusal?.code).toBe('INVITATION_CANCELLED');
  await env.sleep(DAY + 1_000);
  expect(await handle.result()).toEqual({ status: 'EXPIRED' });
  expect(calls).toEqual(['claim:$b@y.example.com', 'expire']);
});

test('without an expiry it waits for a cancellation', async () => {
  const handle = await start(null);
  await env.sleep(30 * DAY);
  expect(calls).toEqual([]);
  expect(await handle.executeUpdate(cancelInvitationUpdate)).toMatchObject({ status: 'CANCELLED' });
  expect(await handle.result()).toEqual({ status: 'CANCELLED' });
  expect(calls).toEqual(['cancel']);
});

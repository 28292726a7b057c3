import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { randomBytes } from 'node:crypto';
import type { DeliveryOutcome } from '../../src/contexts/webhooks/domain/webhook-retry';
import type { invitationLifecycle } from '../../workflows/invitations/invitation-lifecycle';
import { claimInvitationUpdate, type InvitationLifecycleInput } from '../../workflows/invitations/definitions';
import type { WebhookDeliveryResult } from '../../workflows/webhooks/definitions';
import { quietTemporalRuntime, startMockedWorker, type MockedWorker } from '../support/bundled-worker';

// deliverEvents' hand-over (workflows/webhooks/announce.ts) after a first attempt that did not
// post because the endpoint's breaker is open: the retrying workflow waits the pause, not the
// first back-off, and the attempt that did not post is not counted. Any workflow that records an
// event hands over the same way; the invitation's claim is the shortest to drive.

let env: TestWorkflowEnvironment;
let mocked: MockedWorker | undefined;
let firstOutcome: DeliveryOutcome;
let retryTimes: number[];

const activities = {
  async claimInvitation(input: { inviteeUma: string }) {
    const view = { code: 'c', url: 'https://x/invite/c', status: 'CLAIMED', inviterUma: '$a@x.example.com', createdAt: '2026-01-01T00:00:00.000Z' };
    return {
      invitation: { ...view, inviteeUma: input.inviteeUma },
      events: [{ eventId: `Webhook:${randomBytes(6).toString('hex')}`, type: 'INVITATION.CLAIMED' }],
    };
  },
  async deliverWebhooks(input: { eventIds: string[] }) {
    return input.eventIds.map((eventId) => ({ eventId, outcome: firstOutcome }));
  },
  async deliverWebhook(): Promise<DeliveryOutcome> {
    retryTimes.push(Number(await env.currentTimeMs()));
    return { kind: 'DELIVERED', status: 200 };
  },
};

beforeAll(() => quietTemporalRuntime());

beforeEach(async () => {
  mocked = await startMockedWorker(activities);
  env = mocked.env;
  retryTimes = [];
}, 120_000);

afterEach(async () => {
  await mocked?.stop();
});

async function claimAndRetry(): Promise<{ waitedSeconds: number; result: WebhookDeliveryResult }> {
  const input: InvitationLifecycleInput = {
    code: randomBytes(8).toString('hex'),
    platformId: 'Platform:1',
    inviterCustomerId: 'Customer:1',
    expiresInMs: null,
  };
  const handle = await env.client.workflow.start<typeof invitationLifecycle>('invitationLifecycle', {
    taskQueue: mocked!.taskQueue,
    workflowId: input.code,
    args: [input],
  });
  const started = Number(await env.currentTimeMs());
  await handle.executeUpdate(claimInvitationUpdate, { args: [{ inviteeUma: '$b@y.example.com' }] });
  await handle.result();
  const history = await handle.fetchHistory();
  const child = history.events!.find((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)!.startChildWorkflowExecutionInitiatedEventAttributes!;
  const result = await env.client.workflow.getHandle<() => Promise<WebhookDeliveryResult>>(child.workflowId!).result();
  return { waitedSeconds: Math.round((retryTimes[0]! - started) / 1000), result };
}

test('a failed first attempt is handed over to retry after the first back-off (30 s)', async () => {
  firstOutcome = { kind: 'REJECTED', status: 503, body: '' };
  const { waitedSeconds, result } = await claimAndRetry();
  expect(waitedSeconds).toBeGreaterThanOrEqual(30);
  expect(waitedSeconds).toBeLessThan(400);
  expect(result).toMatchObject({ delivered: true, attempts: 2, elapsedSeconds: 30 });
});

test('a paused first attempt is handed over to retry once the pause is over, and was no attempt', async () => {
  firstOutcome = { kind: 'PAUSED', retryAfterSeconds: 420 };
  const { waitedSeconds, result } = await claimAndRetry();
  expect(waitedSeconds).toBeGreaterThanOrEqual(420);
  expect(result).toMatchObject({ delivered: true, attempts: 1, elapsedSeconds: 420 });
});

import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import type { SubmissionResult } from '../../src/contexts/customers/services/verifications';
import type { customerVerification } from '../../workflows/customers/customer-verification';
import { submitVerification } from '../../workflows/customers/definitions';
import { bundledWorker, quietTemporalRuntime } from '../support/bundled-worker';
import { eventually } from '../support/eventually';
import { timeSkippingEnvironment } from '../support/time-skipping';

// A workflow on a context queue starts its children on theirs: the webhook deliveries a verification
// (onboarding) announces run on `webhooks`, polled by a worker of their own, so that a backlog of
// retries never takes the onboarding worker's slots.

let env: TestWorkflowEnvironment;
let workers: { worker: Worker; running: Promise<void> }[] = [];
const delivered: string[] = [];

const approved = (): SubmissionResult =>
  ({
    verification: { id: 'Verification:1', customerId: 'Customer:1', verificationStatus: 'APPROVED', errors: [] },
    events: [{ eventId: `Webhook:${randomUUID()}`, type: 'VERIFICATION.APPROVED' }],
    pending: null,
    terminal: true,
  }) as never;

const activities = {
  async evaluateVerificationSubmission(): Promise<SubmissionResult> {
    return approved();
  },
  async deliverWebhook(input: { eventId: string }) {
    delivered.push(input.eventId);
    return { kind: 'DELIVERED' as const, status: 200 };
  },
  async markWebhookFailed() {},
};

beforeAll(async () => {
  quietTemporalRuntime();
  env = await timeSkippingEnvironment();
  for (const taskQueue of ['onboarding', 'webhooks']) {
    const { worker } = await bundledWorker(env.nativeConnection, activities, { taskQueue });
    workers.push({ worker, running: worker.run() });
  }
}, 120_000);

afterAll(async () => {
  for (const { worker } of workers) worker.shutdown();
  await Promise.all(workers.map((w) => w.running));
  workers = [];
  await env?.teardown();
});

test('a verification on `onboarding` hands its webhook deliveries to workflows on `webhooks`', async () => {
  const verificationId = `Verification:${randomUUID()}`;
  const handle = await env.client.workflow.start<typeof customerVerification>('customerVerification', {
    workflowId: verificationId,
    taskQueue: 'onboarding',
    args: [{ verificationId, platformId: 'Platform:1', customerId: 'Customer:1', environment: 'SANDBOX', resolutionDelaySeconds: 3600 }],
  });
  expect((await handle.executeUpdate(submitVerification)).verificationStatus).toBe('APPROVED');
  await handle.result();
  const [eventId] = await eventually(
    async () => [...delivered],
    (ids) => ids.length >= 1,
  );
  expect((await env.client.workflow.getHandle(eventId!).describe()).taskQueue).toBe('webhooks');
});

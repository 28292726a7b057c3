import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { randomUUID } from 'node:crypto';
import type { SubmissionInput, SubmissionResult } from '../../src/contexts/customers/services/verifications';
import type { customerVerification } from '../../workflows/customers/customer-verification';
import { submitVerification, verificationStatusQuery, VERIFICATION_ALREADY_DECIDED, type VerificationStatusValue } from '../../workflows/customers/definitions';
import { quietTemporalRuntime, startMockedWorker, type MockedWorker } from '../support/bundled-worker';
import { eventually } from '../support/eventually';

// The customerVerification state machine with in-memory activities (the money-transfer
// template's style): which activity runs when, what each update answers, the durable timer, the
// idle end, and the webhook deliveries it starts. The database-backed behaviour is covered by
// customer-verification.test.ts.

let env: TestWorkflowEnvironment;
let mocked: MockedWorker | undefined;
let taskQueue: string;

/** What the fake provider decides for each submission, in order; resolutions record APPROVED/REJECTED. */
let script: SubmissionResult[];
let calls: string[];
let delivered: string[];

const snapshot = (status: VerificationStatusValue) => ({
  id: 'Verification:1',
  customerId: 'Customer:1',
  verificationStatus: status,
  errors: [],
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});
const result = (status: VerificationStatusValue, extra: Partial<SubmissionResult> = {}): SubmissionResult => ({
  verification: snapshot(status) as never,
  events: [{ eventId: `Webhook:${randomUUID()}`, type: `VERIFICATION.${status}` }] as never,
  pending: null,
  terminal: status === 'APPROVED' || status === 'REJECTED',
  ...extra,
});

const activities = {
  async evaluateVerificationSubmission(input: SubmissionInput): Promise<SubmissionResult> {
    calls.push(`evaluate:${input.submissionKey.split(':').pop()}`);
    const next = script.shift();
    if (!next) throw new Error('no scripted submission left');
    return next;
  },
  async resolveVerification(): Promise<SubmissionResult> {
    calls.push('resolve');
    return result('APPROVED');
  },
  async deliverWebhook(input: { eventId: string }) {
    delivered.push(input.eventId);
    return { kind: 'DELIVERED' as const, status: 200 };
  },
  async markWebhookFailed() {},
};

beforeAll(() => quietTemporalRuntime());

// A fresh test server per test: the Java server stops skipping time once a workflow with updates
// and abandoned children has completed (see customer-verification.test.ts).
beforeEach(async () => {
  mocked = await startMockedWorker(activities);
  ({ env, taskQueue } = mocked);
  script = [];
  calls = [];
  delivered = [];
}, 120_000);

afterEach(async () => {
  await mocked?.stop();
});

function start(resolutionDelaySeconds = 3600) {
  const verificationId = `Verification:${randomUUID()}`;
  return env.client.workflow.start<typeof customerVerification>('customerVerification', {
    workflowId: verificationId,
    taskQueue,
    args: [{ verificationId, platformId: 'Platform:1', customerId: 'Customer:1', environment: 'SANDBOX', resolutionDelaySeconds }],
  });
}

test('RESOLVE_ERRORS waits for a corrected packet; IN_PROGRESS waits on the timer; the resolution approves and ends the run', async () => {
  script = [result('RESOLVE_ERRORS'), result('IN_PROGRESS', { pending: { outcome: 'APPROVED' } })];
  const handle = await start();

  expect((await handle.executeUpdate(submitVerification)).verificationStatus).toBe('RESOLVE_ERRORS');
  expect(await handle.query(verificationStatusQuery)).toBe('RESOLVE_ERRORS');
  expect((await handle.executeUpdate(submitVerification)).verificationStatus).toBe('IN_PROGRESS');

  const outcome = await handle.result();
  expect(outcome).toEqual({ verificationId: handle.workflowId, verificationStatus: 'APPROVED', submissions: 2 });
  // Each submission is evaluated once, with its own key; the decision comes after the timer.
  expect(calls).toEqual(['evaluate:1', 'evaluate:2', 'resolve']);
  // One delivery per announced event (RESOLVE_ERRORS, IN_PROGRESS, APPROVED), by abandoned
  // children that may still be running when the verification ends.
  expect(
    await eventually(
      async () => delivered.length,
      (n) => n >= 3,
    ),
  ).toBe(3);
});

test('a submission while the decision is pending answers the pending verification without evaluating again', async () => {
  script = [result('IN_PROGRESS', { pending: { outcome: 'REJECTED' } })];
  const handle = await start();
  await handle.executeUpdate(submitVerification);
  expect((await handle.executeUpdate(submitVerification)).verificationStatus).toBe('IN_PROGRESS');
  expect(calls).toEqual(['evaluate:1']);
  await handle.result();
});

test('a decision made at once ends the workflow; a provider refusal is reported as VERIFICATION_ALREADY_DECIDED', async () => {
  script = [result('APPROVED')];
  const decided = await start();
  expect((await decided.executeUpdate(submitVerification)).verificationStatus).toBe('APPROVED');
  expect((await decided.result()).verificationStatus).toBe('APPROVED');
  expect(calls).toEqual(['evaluate:1']);

  script = [{ verification: null, events: [], pending: null, terminal: true, refused: 'The customer is already APPROVED' }];
  const refused = await start();
  const err = await refused.executeUpdate(submitVerification).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
  expect((err as WorkflowUpdateFailedError).cause).toMatchObject({ type: VERIFICATION_ALREADY_DECIDED });
  await refused.result();
});

test('a verification left with errors ends after 30 idle days, with RESOLVE_ERRORS as its last status', async () => {
  script = [result('RESOLVE_ERRORS')];
  const handle = await start();
  await handle.executeUpdate(submitVerification);
  const outcome = await handle.result();
  expect(outcome).toMatchObject({ verificationStatus: 'RESOLVE_ERRORS', submissions: 1 });
  expect(calls).toEqual(['evaluate:1']);
});

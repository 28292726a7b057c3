import { WorkflowUpdateFailedError, WithStartWorkflowOperation, WorkflowIdConflictPolicy } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { randomUUID } from 'node:crypto';
import type { DeliveryOutcome } from '../../src/contexts/webhooks/domain/webhook-retry';
import type { incomingPayment } from '../../workflows/payments/incoming-payment';
import { incomingPaymentPosted, incomingPaymentStatusQuery, type IncomingPaymentInput, type PostedPayment } from '../../workflows/payments/definitions';
import { quietTemporalRuntime, startMockedWorker, type MockedWorker } from '../support/bundled-worker';
import { executeUpdateWithStartOnTestServer } from '../support/update-with-start';

// The incomingPayment state machine with in-memory activities: one posting step, the update
// answered with the posted payment (or the refusal), first webhook attempts from the payment
// itself, and only the refused events handed to webhookDelivery workflows, which wait the
// first back-off interval before retrying.

let env: TestWorkflowEnvironment;
let mocked: MockedWorker | undefined;
let taskQueue: string;

let posting: (input: IncomingPaymentInput) => Promise<PostedPayment>;
let receiverAnswers: (eventId: string, attempt: number) => DeliveryOutcome;
let calls: string[];
const attempts = new Map<string, number>();

const activities = {
  async postIncomingPayment(input: IncomingPaymentInput) {
    calls.push('post');
    return posting(input);
  },
  async deliverWebhooks(input: { eventIds: string[] }) {
    calls.push(`deliver:${input.eventIds.length}`);
    return input.eventIds.map((eventId) => ({ eventId, outcome: attempt(eventId) }));
  },
  async deliverWebhook(input: { eventId: string }) {
    calls.push('retry');
    return attempt(input.eventId);
  },
  async markWebhookFailed() {},
};

function attempt(eventId: string): DeliveryOutcome {
  const n = (attempts.get(eventId) ?? 0) + 1;
  attempts.set(eventId, n);
  return receiverAnswers(eventId, n);
}

const completed = (input: IncomingPaymentInput): PostedPayment => ({
  transactionId: input.transactionId,
  status: 'COMPLETED',
  events: [
    { eventId: `Webhook:${input.transactionId}:paid`, type: 'INCOMING_PAYMENT.COMPLETED' },
    { eventId: `Webhook:${input.transactionId}:balance`, type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED' },
  ],
});

beforeAll(() => quietTemporalRuntime());

beforeEach(async () => {
  mocked = await startMockedWorker(activities);
  ({ env, taskQueue } = mocked);
  calls = [];
  attempts.clear();
  posting = async (input) => completed(input);
  receiverAnswers = () => ({ kind: 'DELIVERED', status: 200 });
}, 120_000);

afterEach(async () => {
  await mocked?.stop();
});

function input(): IncomingPaymentInput {
  return {
    transactionId: `Transaction:${randomUUID()}`,
    platformId: 'Platform:1',
    environment: 'SANDBOX',
    customerId: 'Customer:1',
    internalAccountId: 'InternalAccount:1',
    currency: 'USD',
    amount: '2500',
    source: { sourceType: 'SANDBOX_FUNDING' },
  };
}

/** As the API's starter does: start and wait for the `posted` update in one call. */
function postWithStart(args: IncomingPaymentInput) {
  const startWorkflowOperation = () =>
    new WithStartWorkflowOperation<typeof incomingPayment>('incomingPayment', {
      workflowId: args.transactionId,
      taskQueue,
      args: [args],
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    });
  return {
    updated: executeUpdateWithStartOnTestServer(env.client.workflow, incomingPaymentPosted, { startWorkflowOperation }),
    handle: async () => env.client.workflow.getHandle(args.transactionId),
  };
}

test('the update answers with the posted payment; both events are delivered from the payment itself, no other workflow runs', async () => {
  const args = input();
  const { updated, handle } = postWithStart(args);
  expect(await updated).toEqual({
    transactionId: args.transactionId,
    status: 'COMPLETED',
    webhookEventIds: [`Webhook:${args.transactionId}:paid`, `Webhook:${args.transactionId}:balance`],
  });
  const payment = await handle();
  expect((await payment.result()).status).toBe('COMPLETED');
  expect(await payment.query(incomingPaymentStatusQuery)).toBe('COMPLETED');
  expect(calls).toEqual(['post', 'deliver:2']);
  const children = (await payment.fetchHistory()).events?.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes) ?? [];
  expect(children).toHaveLength(0);
});

test('an event the receiver refuses is handed to a webhookDelivery workflow (id = event id) that waits 30 s, then retries', async () => {
  const args = input();
  receiverAnswers = (eventId, n) =>
    eventId.endsWith(':balance') && n === 1 ? { kind: 'REJECTED', status: 500, body: 'down' } : { kind: 'DELIVERED', status: 200 };
  const { updated, handle } = postWithStart(args);
  await updated;
  await (await handle()).result();

  const retry = env.client.workflow.getHandle(`Webhook:${args.transactionId}:balance`);
  const outcome = (await retry.result()) as { delivered: boolean; attempts: number; elapsedSeconds: number };
  expect(outcome).toMatchObject({ delivered: true, attempts: 2, elapsedSeconds: 30 });
  expect(calls).toEqual(['post', 'deliver:2', 'retry']);
  expect(attempts.get(`Webhook:${args.transactionId}:paid`)).toBe(1);
});

test('a payment refused by the policy is announced, and the update fails with the refusal code', async () => {
  const args = input();
  posting = async (i) => ({
    transactionId: i.transactionId,
    status: 'FAILED',
    events: [{ eventId: `Webhook:${i.transactionId}:failed`, type: 'INCOMING_PAYMENT.FAILED' }],
    refusal: { code: 'CUSTOMER_DELETED', message: 'gone' },
  });
  const { updated, handle } = postWithStart(args);
  const err = await updated.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
  expect((err as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'CUSTOMER_DELETED', message: 'gone' });
  expect(await (await handle()).result()).toMatchObject({ status: 'FAILED', refusal: { code: 'CUSTOMER_DELETED' } });
  expect(calls).toEqual(['post', 'deliver:1']);
});

test('a posting refused before anything was recorded fails the update and the workflow with the same code', async () => {
  const args = input();
  posting = async () => {
    throw ApplicationFailure.nonRetryable('Internal account not found', 'ACCOUNT_NOT_FOUND');
  };
  const { updated, handle } = postWithStart(args);
  const err = await updated.catch((e: unknown) => e);
  expect((err as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'ACCOUNT_NOT_FOUND' });
  await expect((await handle()).result()).rejects.toThrow();
  expect(calls).toEqual(['post']);
});

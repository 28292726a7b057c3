import { Client, Connection } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { startBulkCustomerImport } from '../../src/temporal/starters/bulk-customer-import';
import { startCardLifecycle } from '../../src/temporal/starters/card-lifecycle';
import { startInvitationLifecycle } from '../../src/temporal/starters/invitation-lifecycle';
import { startQuote } from '../../src/temporal/starters/quote';
import { startWebhookDelivery } from '../../src/temporal/starters/webhook-delivery';
import { WORKFLOW_TASK_QUEUES } from '../../src/temporal/task-queues';

// The starters put each workflow on its context's queue (src/temporal/task-queues.ts), so that a worker
// process told to poll `payments` only never sees a webhook retry or a bulk import. No worker polls
// these queues in the test run: each workflow is started, described, and terminated.

let connection: Connection;
let client: Client;
const started: string[] = [];

beforeAll(async () => {
  connection = await Connection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS! });
  client = new Client({ connection, namespace: 'default' });
});

afterAll(async () => {
  for (const id of started)
    await client.workflow
      .getHandle(id)
      .terminate('test over')
      .catch(() => undefined);
  await connection.close();
});

async function queueOf(workflowId: string): Promise<string> {
  started.push(workflowId);
  return (await client.workflow.getHandle(workflowId).describe()).taskQueue;
}

test('each starter starts its workflow on its own context queue', async () => {
  const transactionId = `Transaction:${randomUUID()}`;
  await startQuote(client, { transactionId, quoteId: `Quote:${randomUUID()}`, platformId: 'Platform:tq' } as never);
  expect(await queueOf(transactionId)).toBe('payments');

  const eventId = `Webhook:${randomUUID()}`;
  await startWebhookDelivery(client, { id: eventId, platformId: 'Platform:tq', type: 'TEST' } as never);
  expect(await queueOf(eventId)).toBe('webhooks');

  const jobId = `BulkImportJob:${randomUUID()}`;
  await startBulkCustomerImport(client, { jobId, platformId: 'Platform:tq' });
  expect(await queueOf(jobId)).toBe('bulk');

  const cardId = `Card:${randomUUID()}`;
  await startCardLifecycle(client, { id: cardId, platformId: 'Platform:tq', cardholderId: 'Customer:tq', environment: 'SANDBOX' }, {} as never);
  expect(await queueOf(cardId)).toBe('cards');

  const code = `inv-${randomUUID()}`;
  await startInvitationLifecycle(client, { code, platformId: 'Platform:tq', inviterCustomerId: 'Customer:tq' } as never);
  expect(await queueOf(code)).toBe('onboarding');
});

test('a caller that names one queue (tests, TEMPORAL_TASK_QUEUE) gets every workflow on it', async () => {
  const eventId = `Webhook:${randomUUID()}`;
  await startWebhookDelivery(client, { id: eventId, platformId: 'Platform:tq', type: 'TEST' } as never, { taskQueue: 'one-queue-test' });
  expect(await queueOf(eventId)).toBe('one-queue-test');
});

test('every workflow type has a queue', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  expect(Object.keys(WORKFLOW_TASK_QUEUES).sort()).toEqual(Object.keys(require('../../workflows')).sort());
});

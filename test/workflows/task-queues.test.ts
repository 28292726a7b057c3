import { Client, Connection } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { startBulkCustomerImport } from '../../src/contexts/customers/starters/bulk-customer-import';
import { startCardLifecycle } from '../../src/contexts/cards/starters/card-lifecycle';
import { startInvitationLifecycle } from '../../src/contexts/invitations/starters/invitation-lifecycle';
import { startQuote } from '../../src/contexts/payments/starters/payment';
import { startWebhookDelivery } from '../../src/contexts/webhooks/starters/webhook-delivery';

// The starters put each workflow on its contract's queue (its WorkflowKind, workflows/<context>/definitions.ts), so that a worker
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

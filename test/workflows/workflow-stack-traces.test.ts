import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { skipWorkflowPromiseStacks } from '../../worker/workflow-promise-stacks';
import { bundledWorker, quietTemporalRuntime } from '../support/bundled-worker';
import type { WebhookDeliveryInput } from '../../workflows/webhooks/definitions';

// The SDK's real workflow thread, on the test run's dev server: with the promise hook left out (the worker's default,
// worker/workflow-promise-stacks.ts) a waiting workflow's stack trace query is refused; with it kept
// (WORKFLOW_STACK_TRACES=1) it answers where the workflow waits. A webhook delivery told to wait an hour before its
// first attempt is the waiting workflow: no activity runs.

let connection: Connection;
let native: NativeConnection;
let client: Client;
const started: string[] = [];

beforeAll(async () => {
  quietTemporalRuntime();
  connection = await Connection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS! });
  native = await NativeConnection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS! });
  client = new Client({ connection, namespace: 'default' });
});

afterAll(async () => {
  for (const id of started)
    await client.workflow
      .getHandle(id)
      .terminate('test over')
      .catch(() => undefined);
  await native?.close();
  await connection?.close();
});

/** A worker (without the promise hook, or with it), a delivery waiting on its timer, and what its stack trace query answers. */
async function stackTraceQuery(withoutPromiseStacks: boolean): Promise<{ answered?: string; refused?: string }> {
  const restore = withoutPromiseStacks ? skipWorkflowPromiseStacks() : () => undefined;
  let worker: Worker;
  let taskQueue: string;
  try {
    ({ worker, taskQueue } = await bundledWorker(native, {}));
  } finally {
    restore();
  }
  const running = worker.run();
  try {
    const input: WebhookDeliveryInput = { eventId: `wh-stack-${randomUUID()}`, firstAttemptAfterSeconds: 3_600 };
    const handle = await client.workflow.start('webhookDelivery', { workflowId: input.eventId, taskQueue, args: [input] });
    started.push(handle.workflowId);
    return await handle.query<string>('__stack_trace').then(
      (answered) => ({ answered }),
      (err: Error) => ({ refused: err.message }),
    );
  } finally {
    worker.shutdown();
    await running;
  }
}

test('with the promise hook left out, the stack trace query is refused, saying why', async () => {
  expect(await stackTraceQuery(true)).toEqual({ refused: expect.stringContaining('Workflow stack traces are not enabled on this worker') });
}, 120_000);

test('with the hook kept (WORKFLOW_STACK_TRACES=1), it answers where the workflow waits', async () => {
  const { answered, refused } = await stackTraceQuery(false);
  expect(refused).toBeUndefined();
  expect(answered).toContain('workflows/webhooks/webhook-delivery.ts'); // its timer before the first attempt
}, 120_000);

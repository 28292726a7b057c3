import { singleTaskQueue, workerTaskQueues } from '../../src/temporal/task-queue-settings';
import { childTaskQueue, TASK_QUEUES } from '../../src/temporal/task-queues';
import { OUTGOING_PAYMENT_WORKFLOW } from '../../workflows/payments/definitions';
import { WEBHOOK_DELIVERY_WORKFLOW } from '../../workflows/webhooks/definitions';

// Which queues a worker process polls (WORKER_TASK_QUEUES, TEMPORAL_TASK_QUEUE), and where a workflow starts
// its children: a misspelt queue would leave its workflows unpolled, so it stops the worker at start.

test('a worker polls every context queue unless told otherwise', () => {
  expect(workerTaskQueues({})).toEqual([...TASK_QUEUES]);
  expect(workerTaskQueues({ WORKER_TASK_QUEUES: ' payments , webhooks,payments' })).toEqual(['payments', 'webhooks']);
});

test('an unknown or empty name in WORKER_TASK_QUEUES is refused, naming the valid ones', () => {
  expect(() => workerTaskQueues({ WORKER_TASK_QUEUES: 'payments,payment' })).toThrow(/unknown queues \("payment"\).*payments, onboarding, webhooks/);
  expect(() => workerTaskQueues({ WORKER_TASK_QUEUES: 'payments,' })).toThrow(/unknown queues/);
});

test('TEMPORAL_TASK_QUEUE puts everything on one queue, which may not be a context queue', () => {
  expect(workerTaskQueues({ TEMPORAL_TASK_QUEUE: 'payments-e2e', WORKER_TASK_QUEUES: 'payments' })).toEqual(['payments-e2e']);
  expect(singleTaskQueue({})).toBeUndefined();
  expect(() => singleTaskQueue({ TEMPORAL_TASK_QUEUE: 'webhooks' })).toThrow(/must not be one of the context queues/);
});

test('a child goes to its own queue from a context queue, and stays on its parent one-queue otherwise', () => {
  expect(childTaskQueue(WEBHOOK_DELIVERY_WORKFLOW, 'onboarding')).toBe('webhooks');
  expect(childTaskQueue(OUTGOING_PAYMENT_WORKFLOW, 'payments')).toBe('payments');
  expect(childTaskQueue(WEBHOOK_DELIVERY_WORKFLOW, 'test-1234')).toBeUndefined();
});

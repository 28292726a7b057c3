import { pollerOptions } from '../../worker/pollers';
import { TASK_QUEUES } from '../../src/temporal/task-queues';

// Each worker process runs one SDK Worker per queue (isolation: each queue has slots of its own). With the SDK's
// fixed 10 workflow-task and 10 activity-task pollers each, six queues held 120 long polls per process, 100 of
// them on queues that are idle most of the time. Only the payments queue (and the one queue of tests and the
// bench) keeps the fixed pollers; the others scale their pollers with their backlog, from one or two up to the
// same maximum, so that a webhook flood still gets its pollers.

test('the payments queue, and a one-queue setup, keep the SDK fixed pollers', () => {
  expect(pollerOptions('payments')).toEqual({});
  expect(pollerOptions('bench-payments-1234')).toEqual({});
});

test('every other context queue scales its pollers from a small floor to the fixed maximum', () => {
  for (const queue of TASK_QUEUES.filter((q) => q !== 'payments')) {
    const options = pollerOptions(queue);
    expect(options.workflowTaskPollerBehavior).toEqual({ type: 'autoscaling', minimum: 2, initial: 2, maximum: 10 });
    expect(options.activityTaskPollerBehavior).toEqual({ type: 'autoscaling', minimum: 1, initial: 1, maximum: 10 });
  }
});

test('the six queues ask for 35 pollers at start (the scaled queues at their floor), against 120 with fixed pollers', () => {
  const floor = (queue: string) => {
    const options = pollerOptions(queue);
    const wft = options.workflowTaskPollerBehavior;
    const at = options.activityTaskPollerBehavior;
    return (wft?.type === 'autoscaling' ? wft.initial! : 10) + (at?.type === 'autoscaling' ? at.initial! : 10);
  };
  expect(TASK_QUEUES.reduce((sum, queue) => sum + floor(queue), 0)).toBe(35);
});

import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { neverProcessed, retryingUnprocessedUpdate } from '../../src/temporal/update-retry';

// The server's answer to an update a worker completed a workflow task without processing (seen
// under 100 concurrent executes of one quote): nothing ran, so the update may be sent again.
const unprocessed = () =>
  new WorkflowUpdateFailedError(
    'Workflow Update failed',
    ApplicationFailure.create({ type: 'UnprocessedUpdate', message: "Workflow Update is rejected because it wasn't processed by worker.", nonRetryable: true }),
  );
const refused = () =>
  new WorkflowUpdateFailedError('Workflow Update failed', ApplicationFailure.nonRetryable('The account balance is too low', 'INSUFFICIENT_FUNDS'));

describe('updates rejected unprocessed', () => {
  test('are recognised by their failure type, refusals and other errors are not', () => {
    expect(neverProcessed(unprocessed())).toBe(true);
    expect(neverProcessed(refused())).toBe(false);
    expect(neverProcessed(new Error('UnprocessedUpdate'))).toBe(false);
  });

  test('are sent again until answered; a refusal is not repeated', async () => {
    let calls = 0;
    await expect(retryingUnprocessedUpdate(async () => (++calls < 3 ? Promise.reject(unprocessed()) : 'executed'))).resolves.toBe('executed');
    expect(calls).toBe(3);
    calls = 0;
    await expect(retryingUnprocessedUpdate(async () => (++calls, Promise.reject(refused())))).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
    expect(calls).toBe(1);
  });

  test('give up after five attempts with the rejection', async () => {
    let calls = 0;
    await expect(retryingUnprocessedUpdate(async () => (++calls, Promise.reject(unprocessed())))).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
    expect(calls).toBe(5);
  });
});

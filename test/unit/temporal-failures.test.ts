import { WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, NamespaceNotFoundError, RetryState, WorkflowNotFoundError } from '@temporalio/common';
import { toActivityFailure } from '../../activities/failures';
import { HTTP_STATUS } from '../../src/api/error-status';
import { DomainError, ERROR_CODES } from '../../src/domain/errors';
import { domainErrorFrom, runIsOver, temporalOutOfReach } from '../../src/temporal/failures';

// Regression: the sandbox route looked for the ApplicationFailure directly under
// WorkflowFailedError, but a refusal raised by an activity arrives one level deeper (wrapped in
// an ActivityFailure), so it came out as a 500.

const refusal = () =>
  ApplicationFailure.nonRetryable('The account balance is too low for this movement', 'INSUFFICIENT_FUNDS', { accountId: 'InternalAccount:1' });

function activityFailed(cause: ApplicationFailure): ActivityFailure {
  return new ActivityFailure('activity failed', 'settleIncomingPayment', '5', RetryState.NON_RETRYABLE_FAILURE, 'worker', cause);
}

describe('domainErrorFrom', () => {
  test('finds a refusal an activity raised, wrapped in an ActivityFailure under WorkflowFailedError', () => {
    const err = new WorkflowFailedError('workflow failed', activityFailed(refusal()), RetryState.NON_RETRYABLE_FAILURE);
    const mapped = domainErrorFrom(err);
    expect(mapped).toBeInstanceOf(DomainError);
    expect(mapped).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      reason: 'The account balance is too low for this movement',
      details: { accountId: 'InternalAccount:1' },
    });
  });

  test('finds a refusal the workflow raised itself, and one returned by an update', () => {
    expect(domainErrorFrom(new WorkflowFailedError('failed', refusal(), RetryState.NON_RETRYABLE_FAILURE))?.code).toBe('INSUFFICIENT_FUNDS');
    expect(domainErrorFrom(new WorkflowUpdateFailedError('update failed', activityFailed(refusal())))?.code).toBe('INSUFFICIENT_FUNDS');
  });

  test('leaves failures that are not one of our codes alone (they become 500s)', () => {
    expect(
      domainErrorFrom(new WorkflowFailedError('failed', ApplicationFailure.nonRetryable('boom', 'TypeError'), RetryState.NON_RETRYABLE_FAILURE)),
    ).toBeUndefined();
    expect(domainErrorFrom(new Error('connection refused'))).toBeUndefined();
  });
});

describe('toActivityFailure', () => {
  test('turns a DomainError into a non-retryable failure typed with its code, details kept', () => {
    const failure = toActivityFailure(new DomainError('CUSTOMER_DELETED', 'gone', { customerId: 'Customer:1' }));
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'CUSTOMER_DELETED', nonRetryable: true, message: 'gone', details: [{ customerId: 'Customer:1' }] });
  });

  test('leaves other errors retryable', () => {
    const err = new Error('database unavailable');
    expect(toActivityFailure(err)).toBe(err);
  });

  test('round trip: what an activity refuses is what the API answers', () => {
    const failure = toActivityFailure(new DomainError('USER_NOT_READY', 'not approved')) as ApplicationFailure;
    const mapped = domainErrorFrom(new WorkflowFailedError('failed', activityFailed(failure), RetryState.NON_RETRYABLE_FAILURE))!;
    expect(HTTP_STATUS[mapped.code]).toBe(403);
  });
});

test('every error code has an HTTP status', () => {
  for (const code of ERROR_CODES) expect(HTTP_STATUS[code]).toBeGreaterThanOrEqual(400);
});

describe('temporalOutOfReach', () => {
  // Regression (test/e2e/cluster.test.ts): a worker SIGKILLed while it held a payment's workflow task left the task
  // failing until its timeout; the execute sent meanwhile was refused FAILED_PRECONDITION and answered 500.
  const grpc = (code: number, message: string) => Object.assign(new Error(message), { code, details: message, metadata: {} });

  test("an update refused while the workflow's task is failing is a retry later (503), as the client's error carries it", () => {
    // executeUpdateWithStart rethrows the multi-operation's failure with the update's message and the status code.
    const refused = Object.assign(new Error('Unable to perform workflow execution update due to Workflow Task in failed state.'), { code: 9 });
    expect(temporalOutOfReach(refused)).toBe(true);
    expect(temporalOutOfReach(grpc(9, 'Unable to perform workflow execution update due to Workflow Task in failed state.'))).toBe(true);
  });

  test('deadlines and lost connections are too; other failed preconditions and errors are not', () => {
    expect(temporalOutOfReach(grpc(4, 'Deadline exceeded'))).toBe(true);
    expect(temporalOutOfReach(grpc(14, 'No connection established'))).toBe(true);
    expect(temporalOutOfReach(grpc(9, 'Namespace is not active'))).toBe(false);
    expect(temporalOutOfReach(new Error('Unable to perform workflow execution update due to Workflow Task in failed state.'))).toBe(false);
  });
});

describe('a namespace the Temporal server does not know for a moment (after its PostgreSQL failed over)', () => {
  // Regression (test/e2e/failover.test.ts): right after the promotion the server answered the service's own namespace
  // NOT_FOUND; two executes were answered 500 and their payouts stayed PENDING, and an update refused so would have
  // been taken for a run that is over (the execute answered 200 without reaching the workflow).
  const grpc = (code: number, message: string) => Object.assign(new Error(message), { code, details: message, metadata: {} });

  test('is a retry later (503), whether the client names it or passes the status on', () => {
    expect(temporalOutOfReach(new NamespaceNotFoundError('default'))).toBe(true);
    expect(temporalOutOfReach(grpc(5, 'Namespace default is not found.'))).toBe(true);
    expect(temporalOutOfReach(new Error('Update-with-Start could not be executed.', { cause: grpc(5, 'Namespace default is not found.') }))).toBe(true);
    expect(temporalOutOfReach(grpc(5, 'workflow execution not found'))).toBe(false);
  });

  test('is not a run that is over; a workflow that is not found still is', () => {
    expect(runIsOver(grpc(5, 'Namespace default is not found.'))).toBe(false);
    expect(runIsOver(new NamespaceNotFoundError('default'))).toBe(false);
    expect(runIsOver(new WorkflowNotFoundError('not found', 'Transaction:1', undefined))).toBe(true);
    expect(runIsOver(grpc(5, 'workflow execution already completed'))).toBe(true);
  });

  test('nothing out of reach is a run that is over, whatever its message says', () => {
    expect(runIsOver(grpc(14, '14 UNAVAILABLE: Connection closed'))).toBe(false);
    expect(runIsOver(new Error('workflow update not found or closed', { cause: grpc(4, '4 DEADLINE_EXCEEDED: Deadline exceeded') }))).toBe(false);
  });
});

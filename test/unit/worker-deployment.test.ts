import { TASK_QUEUES } from '../../src/temporal/task-queues';
import { workflowKinds } from '../../src/temporal/workflow-kind';
import { workerDeployment } from '../../src/temporal/worker-deployment';

// Worker Versioning is opt-in: without WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID a worker is unversioned, as
// `npm start` runs it. Half a setting, or a name the server would refuse, stops the worker at start instead of
// leaving it polling as something nobody routes to.

test('unset: an unversioned worker', () => {
  expect(workerDeployment({})).toBeUndefined();
  expect(workerDeployment({ WORKER_DEPLOYMENT_NAME: ' ', WORKER_BUILD_ID: '' })).toBeUndefined();
});

test('both set: the deployment version the worker polls as', () => {
  expect(workerDeployment({ WORKER_DEPLOYMENT_NAME: 'payments-service', WORKER_BUILD_ID: ' 2026-12-13-a1b2c3d ' })).toEqual({
    deploymentName: 'payments-service',
    buildId: '2026-12-13-a1b2c3d',
  });
});

test('one without the other is refused', () => {
  expect(() => workerDeployment({ WORKER_DEPLOYMENT_NAME: 'payments-service' })).toThrow(/WORKER_BUILD_ID is not set/);
  expect(() => workerDeployment({ WORKER_BUILD_ID: 'a1b2c3d' })).toThrow(/WORKER_DEPLOYMENT_NAME is not set/);
});

test('a deployment name with the version delimiters, or a build id the server would refuse, is refused', () => {
  expect(() => workerDeployment({ WORKER_DEPLOYMENT_NAME: 'payments.service', WORKER_BUILD_ID: 'a' })).toThrow(/WORKER_DEPLOYMENT_NAME.*'\.' or ':'/);
  expect(() => workerDeployment({ WORKER_DEPLOYMENT_NAME: 'payments:service', WORKER_BUILD_ID: 'a' })).toThrow(/'\.' or ':'/);
  expect(() => workerDeployment({ WORKER_DEPLOYMENT_NAME: 'payments', WORKER_BUILD_ID: 'x'.repeat(256) })).toThrow(/WORKER_BUILD_ID.*255/);
  expect(() => workerDeployment({ WORKER_DEPLOYMENT_NAME: 'payments', WORKER_BUILD_ID: 'build 7' })).toThrow(/WORKER_BUILD_ID.*spaces/);
});

test('every workflow type has a versioning behaviour: money, bulk and challenges pinned, the long-lived ones auto-upgrade', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const kinds = workflowKinds(require('../../workflows'));
  const behaviours = Object.fromEntries(kinds.map((kind) => [kind.type, kind.versioning]));
  const pinned = kinds
    .filter((kind) => kind.versioning === 'PINNED')
    .map((kind) => kind.type)
    .sort();
  expect(pinned).toEqual([
    'bulkCustomerImport',
    'incomingPayment',
    'outgoingPayment',
    'payment',
    'quote',
    'scaChallenge',
    'stablecoinIssuance',
    'stablecoinOperation',
  ]);
  // A run that may live for weeks or years would keep its build's workers running as long: they follow the current build.
  for (const type of ['cardLifecycle', 'customerVerification', 'externalAccountVerification', 'invitationLifecycle', 'webhookDelivery'] as const) {
    expect(behaviours[type]).toBe('AUTO_UPGRADE');
  }
  expect(TASK_QUEUES.length).toBeGreaterThan(0);
});

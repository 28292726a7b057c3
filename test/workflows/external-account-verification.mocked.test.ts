import { WithStartWorkflowOperation, WorkflowIdConflictPolicy, type WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { randomUUID } from 'node:crypto';
import { register } from '../../src/contexts/external-accounts/domain/registration';
import type { externalAccountVerification } from '../../workflows/external-accounts/external-account-verification';
import {
  openOwnershipChallengeUpdate,
  submitOwnershipSignatureUpdate,
  type ExternalAccountVerificationInput,
} from '../../workflows/external-accounts/definitions';
import { quietTemporalRuntime, startMockedWorker, type MockedWorker } from '../support/bundled-worker';
import { executeUpdateWithStartOnTestServer } from '../support/update-with-start';

// The externalAccountVerification state machine with in-memory activities: which step runs after
// which durable timer (name check, banking-day window, challenge expiry), and the webhooks it
// delivers. The database-backed behaviour is covered by test/api/external-accounts*.test.ts.

let env: TestWorkflowEnvironment;
let mocked: MockedWorker | undefined;
let taskQueue: string;
let calls: string[];
let delivered: string[];
let signatureOutcome: 'PASSED' | 'FAILED' | 'EXPIRED' | 'NO_CHALLENGE';

const event = (type = 'EXTERNAL_ACCOUNT.STATUS_UPDATED') => ({ eventId: `Webhook:${randomUUID()}`, type });

const activities = {
  async resolveNameCheck() {
    calls.push('resolveNameCheck');
    return { events: [event()] };
  },
  async completeBankValidation() {
    calls.push('completeBankValidation');
    return { events: [event()] };
  },
  async openOwnershipChallenge(input: { challengeId: string; method: string; validForMinutes: number }) {
    calls.push(`open:${input.method}`);
    return {
      challenge: {
        method: 'WALLET_SIGNATURE',
        messageToSign: `sign ${input.challengeId}`,
        expiresAt: new Date(Date.now() + input.validForMinutes * 60_000).toISOString(),
      },
      events: [],
    };
  },
  async submitOwnershipSignature() {
    calls.push(`signature:${signatureOutcome}`);
    return {
      outcome: signatureOutcome,
      account: { status: signatureOutcome === 'PASSED' ? 'ACTIVE' : 'UNVERIFIED' },
      events: signatureOutcome === 'NO_CHALLENGE' ? [] : [event()],
    };
  },
  async recordLivenessOutcome() {
    calls.push('liveness');
    return { events: [event()] };
  },
  async expireOwnershipChallenge() {
    calls.push('expire');
    return { events: [] };
  },
  async deliverWebhooks(input: { eventIds: string[] }) {
    delivered.push(...input.eventIds);
    return input.eventIds.map((eventId) => ({ eventId, outcome: { kind: 'DELIVERED' as const, status: 200 } }));
  },
};

beforeAll(() => quietTemporalRuntime());

// A fresh test server per test (see customer-verification.mocked.test.ts).
beforeEach(async () => {
  mocked = await startMockedWorker(activities);
  ({ env, taskQueue } = mocked);
  calls = [];
  delivered = [];
  signatureOutcome = 'PASSED';
}, 120_000);

afterEach(async () => {
  await mocked?.stop();
});

const input = (extra: Partial<ExternalAccountVerificationInput> = {}): ExternalAccountVerificationInput => ({
  externalAccountId: `ExternalAccount:${randomUUID()}`,
  platformId: 'Platform:1',
  customerId: 'Customer:1',
  environment: 'PRODUCTION',
  ...extra,
});

function start(args: ExternalAccountVerificationInput) {
  return env.client.workflow.start<typeof externalAccountVerification>('externalAccountVerification', {
    workflowId: args.externalAccountId,
    taskQueue,
    args: [args],
  });
}

/** The durations of the timers the workflow started, in seconds, in order. */
async function timers(handle: WorkflowHandle): Promise<number[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds));
}

test('a PENDING name check resolves after its timer and is announced', async () => {
  const handle = await start(input({ nameCheckAfterSeconds: 5 }));
  await handle.result();
  expect(calls).toEqual(['resolveNameCheck']);
  expect(delivered).toHaveLength(1);
  expect(await timers(handle)).toEqual([5]);
});

test('the US validation window is a durable timer of three banking days: registered on a Friday, validated on Wednesday', async () => {
  const friday = new Date('2026-11-20T15:00:00Z');
  const info = {
    accountType: 'USD_ACCOUNT',
    accountNumber: '123456789',
    routingNumber: '021000021',
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' },
  };
  const registration = register({ info, environment: 'PRODUCTION', platform: { region: 'US', counterpartyInformationRequired: false }, now: friday });
  expect(registration.bankValidationDueAt!.toISOString()).toBe('2026-11-25T15:00:00.000Z');
  const handle = await start(input(registration.pendingWork));
  await handle.result();
  expect(calls).toEqual(['completeBankValidation']);
  expect(await timers(handle)).toEqual([5 * 86_400]);
});

test('both checks of one account run side by side, each on its own timer', async () => {
  const handle = await start(input({ nameCheckAfterSeconds: 5, bankValidationAfterSeconds: 10 }));
  await handle.result();
  expect(calls).toEqual(['resolveNameCheck', 'completeBankValidation']);
  expect(delivered).toHaveLength(2);
});

function verificationStart(args: ExternalAccountVerificationInput) {
  return new WithStartWorkflowOperation<typeof externalAccountVerification>('externalAccountVerification', {
    workflowId: args.externalAccountId,
    taskQueue,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    args: [args],
  });
}

function challenge(args: ExternalAccountVerificationInput) {
  return executeUpdateWithStartOnTestServer(env.client.workflow, openOwnershipChallengeUpdate, {
    args: [{ method: 'WALLET_SIGNATURE', livenessLink: 'http://x' }],
    startWorkflowOperation: () => verificationStart(args),
  });
}

test('an unanswered challenge expires on its timer and the run ends; a later signature is answered EXPIRED', async () => {
  const args = input();
  const issued = await challenge(args);
  expect(issued.method).toBe('WALLET_SIGNATURE');
  await env.client.workflow.getHandle(args.externalAccountId).result();
  expect(calls).toEqual(['open:WALLET_SIGNATURE', 'expire']);
  // One timer, up to the challenge's expiresAt (15 minutes after it was issued).
  const [timer, ...others] = await timers(env.client.workflow.getHandle(args.externalAccountId));
  expect(others).toEqual([]);
  expect(timer).toBeGreaterThanOrEqual(15 * 60 - 2);
  expect(timer).toBeLessThanOrEqual(15 * 60);

  signatureOutcome = 'EXPIRED';
  const answer = await executeUpdateWithStartOnTestServer(env.client.workflow, submitOwnershipSignatureUpdate, {
    args: [{ signature: '0x00' }],
    startWorkflowOperation: () => verificationStart(args),
  });
  expect(answer.outcome).toBe('EXPIRED');
  await env.client.workflow.getHandle(args.externalAccountId).result();
  expect(calls).toEqual(['open:WALLET_SIGNATURE', 'expire', 'signature:EXPIRED']);
  expect(delivered).toHaveLength(1);
});

test('a valid signature before expiry ends the run without expiring anything', async () => {
  const args = input();
  await challenge(args);
  const handle = env.client.workflow.getHandle<typeof externalAccountVerification>(args.externalAccountId);
  const answer = await handle.executeUpdate(submitOwnershipSignatureUpdate, { args: [{ signature: '0x01' }] });
  expect(answer).toMatchObject({ outcome: 'PASSED', account: { status: 'ACTIVE' } });
  await handle.result();
  expect(calls).toEqual(['open:WALLET_SIGNATURE', 'signature:PASSED']);
  expect(delivered).toHaveLength(1);
});

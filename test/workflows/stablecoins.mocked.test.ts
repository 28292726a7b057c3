import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { randomUUID } from 'node:crypto';
import type { stablecoinIssuance } from '../../workflows/stablecoins/stablecoin-issuance';
import type { stablecoinOperation } from '../../workflows/stablecoins/stablecoin-operation';
import { fundStablecoinOperationUpdate, submitStablecoinOperationUpdate, type StablecoinTiming } from '../../workflows/stablecoins/definitions';
import { domainErrorFrom } from '../../src/temporal/failures';
import { quietTemporalRuntime, startMockedWorker, type MockedWorker } from '../support/bundled-worker';

// The stablecoin workflows with in-memory activities on the time-skipping server: the funding
// window is a durable timer (a week passes in no time), the funding update races it, the
// provider's steps follow their timers in order, and issuance stops at REJECTED or FAILED. The
// database-backed behaviour is covered by test/api/stablecoins.test.ts.

let env: TestWorkflowEnvironment;
let mocked: MockedWorker | undefined;
let taskQueue: string;
let calls: string[];
let submission: { status: string; fundingWindowMs?: number; refusal?: { code: string; message: string } };
let settled: string;
let issuance: string[];
let fundingRefusal: string | null;
let expired: string;

const DAY = 86_400_000;
const timing: StablecoinTiming = {
  reviewSeconds: 60,
  provisioningSeconds: 600,
  fundingWindowSeconds: 7 * 86_400,
  providerSeconds: 30,
  settlementSeconds: 3_600,
};

const activities = {
  async submitStablecoinOperation(input: { fundingWindowSeconds: number }) {
    calls.push(`submit:${input.fundingWindowSeconds}`);
    return submission;
  },
  async recordStablecoinFunding() {
    calls.push('fund');
    if (fundingRefusal) throw ApplicationFailure.nonRetryable('the operation does not wait for funds', fundingRefusal);
    return { status: 'PENDING_PROVIDER' };
  },
  async expireStablecoinOperation() {
    calls.push('expire');
    return { status: expired };
  },
  async startStablecoinProcessing() {
    calls.push('process');
    return { status: 'PROCESSING' };
  },
  async settleStablecoinOperation() {
    calls.push('settle');
    return { status: settled };
  },
  async stablecoinIssuanceStatus() {
    calls.push('issuance-status');
    return 'PENDING_REVIEW';
  },
  async advanceStablecoinIssuance() {
    const next = issuance.shift()!;
    calls.push(`advance:${next}`);
    return next;
  },
};

beforeAll(() => quietTemporalRuntime());

beforeEach(async () => {
  mocked = await startMockedWorker(activities);
  ({ env, taskQueue } = mocked);
  calls = [];
  submission = { status: 'PENDING_PROVIDER' };
  settled = 'COMPLETED';
  issuance = [];
  fundingRefusal = null;
  expired = 'EXPIRED';
}, 120_000);

afterEach(async () => {
  await mocked?.stop();
});

function startOperation() {
  const operationId = `StablecoinOperation:${randomUUID()}`;
  return env.client.workflow.start<typeof stablecoinOperation>('stablecoinOperation', {
    taskQueue,
    workflowId: operationId,
    args: [{ operationId, stablecoinId: 'Stablecoin:1', platformId: 'Platform:1', timing }],
  });
}

describe('stablecoinOperation', () => {
  test('answers the submission, then the provider takes it up and finishes it, each after its timer', async () => {
    const handle = await startOperation();
    expect(await handle.executeUpdate(submitStablecoinOperationUpdate)).toEqual({ status: 'PENDING_PROVIDER' });
    expect(await handle.result()).toEqual({ status: 'COMPLETED' });
    expect(calls).toEqual([`submit:${7 * 86_400}`, 'process', 'settle']);
  });

  test('a refusal at submission is the answer and the end: nothing is taken up', async () => {
    submission = { status: 'FAILED', refusal: { code: 'STABLECOIN_PROVIDER_ERROR', message: 'refused' } };
    const handle = await startOperation();
    expect(await handle.executeUpdate(submitStablecoinOperationUpdate)).toMatchObject({ status: 'FAILED', refusal: { code: 'STABLECOIN_PROVIDER_ERROR' } });
    expect(await handle.result()).toEqual({ status: 'FAILED' });
    expect(calls).toEqual([`submit:${7 * 86_400}`]);
  });

  test('waiting for funds: the window is a durable timer; a week later it expires, and only then', async () => {
    submission = { status: 'PENDING_FUNDING', fundingWindowMs: 7 * DAY };
    const handle = await startOperation();
    await handle.executeUpdate(submitStablecoinOperationUpdate);
    await env.sleep(6 * DAY);
    expect(calls).not.toContain('expire');
    await env.sleep(DAY + 1_000);
    expect(await handle.result()).toEqual({ status: 'EXPIRED' });
    expect(calls).toEqual([`submit:${7 * 86_400}`, 'expire']);
  });

  test('funds within the window: no expiry; the provider then processes it, and a failed transfer ends FAILED', async () => {
    submission = { status: 'PENDING_FUNDING', fundingWindowMs: 7 * DAY };
    settled = 'FAILED';
    const handle = await startOperation();
    await handle.executeUpdate(submitStablecoinOperationUpdate);
    await env.sleep(3 * DAY);
    expect(await handle.executeUpdate(fundStablecoinOperationUpdate)).toEqual({ status: 'PENDING_PROVIDER' });
    expect(await handle.result()).toEqual({ status: 'FAILED' });
    expect(calls).toEqual([`submit:${7 * 86_400}`, 'fund', 'process', 'settle']);
  });

  test('a refused funding reaches the caller with its code and leaves the window running', async () => {
    submission = { status: 'PENDING_FUNDING', fundingWindowMs: DAY };
    fundingRefusal = 'INVALID_STATE_TRANSITION';
    const handle = await startOperation();
    await handle.executeUpdate(submitStablecoinOperationUpdate);
    const refusal = await handle.executeUpdate(fundStablecoinOperationUpdate).then(
      () => undefined,
      (err: unknown) => domainErrorFrom(err),
    );
    expect(refusal?.code).toBe('INVALID_STATE_TRANSITION');
    await env.sleep(DAY + 1_000);
    expect(await handle.result()).toEqual({ status: 'EXPIRED' });
    expect(calls).toEqual([`submit:${7 * 86_400}`, 'fund', 'expire']);
  });
});

test('funds recorded just as the window closed (the expiry step finds them): the operation carries on to COMPLETED', async () => {
  submission = { status: 'PENDING_FUNDING', fundingWindowMs: DAY };
  expired = 'PENDING_PROVIDER';
  const handle = await startOperation();
  await handle.executeUpdate(submitStablecoinOperationUpdate);
  await env.sleep(DAY + 1_000);
  expect(await handle.result()).toEqual({ status: 'COMPLETED' });
  expect(calls).toEqual([`submit:${7 * 86_400}`, 'expire', 'process', 'settle']);
});

describe('stablecoinIssuance', () => {
  const startIssuance = () => {
    const stablecoinId = `Stablecoin:${randomUUID()}`;
    return env.client.workflow.start<typeof stablecoinIssuance>('stablecoinIssuance', {
      taskQueue,
      workflowId: stablecoinId,
      args: [{ stablecoinId, platformId: 'Platform:1', timing }],
    });
  };

  test('review, then provisioning, each after its timer', async () => {
    issuance = ['PROVISIONING', 'PROVISIONED'];
    expect(await (await startIssuance()).result()).toEqual({ issuanceStatus: 'PROVISIONED' });
    expect(calls).toEqual(['issuance-status', 'advance:PROVISIONING', 'advance:PROVISIONED']);
  });

  test('a rejected review ends it without provisioning', async () => {
    issuance = ['REJECTED'];
    expect(await (await startIssuance()).result()).toEqual({ issuanceStatus: 'REJECTED' });
    expect(calls).toEqual(['issuance-status', 'advance:REJECTED']);
  });
});

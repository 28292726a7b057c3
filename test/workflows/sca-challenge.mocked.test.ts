import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { randomUUID } from 'node:crypto';
import type { payment } from '../../workflows/payments/payment';
import { executePaymentUpdate, type QuoteInput } from '../../workflows/payments/definitions';
import type { scaChallenge } from '../../workflows/sca/sca-challenge';
import { authorizeChallengeUpdate, resendChallengeUpdate, type ScaChallengeInput } from '../../workflows/sca/definitions';
import { quietTemporalRuntime, startMockedWorker, type MockedWorker } from '../support/bundled-worker';

// The scaChallenge workflow with in-memory activities on the time-skipping server, next to the
// payment workflow it decides: proofs taking turns, a void challenge, resends, the expiry on its
// durable timer, and the outcome reaching the held payment exactly once.

let env: TestWorkflowEnvironment;
let mocked: MockedWorker | undefined;
let taskQueue: string;
let calls: string[];
/** What the next proofs come to, in order (then 'OK'). */
let verdicts: ('OK' | 'WRONG' | 'BURN')[];

const event = (type: string) => ({ eventId: `Webhook:${randomUUID()}`, type });
const activities = {
  async executeQuote(input: { quoteId: string; requestKey?: string; approved?: string[] }) {
    calls.push(input.approved?.length ? `execute+${input.approved.join('+')}` : 'execute');
    if (!(input.approved ?? []).includes('scaAuthorization')) {
      return {
        transactionId: `Transaction:${input.quoteId.slice(6)}`,
        held: { gate: 'scaAuthorization', status: 'PENDING_AUTHORIZATION', expiresInSeconds: 600, expiresAt: '2030-01-01T00:00:00.000Z', reason: 'test' },
        events: [event('OUTGOING_PAYMENT.PENDING_AUTHORIZATION')],
      };
    }
    return {
      alreadyExecuted: false,
      repeat: false,
      ended: false,
      executedBy: input.requestKey ?? null,
      transactionId: `Transaction:${input.quoteId.slice(6)}`,
      plan: { outcome: 'COMPLETES', afterSeconds: 0 },
      events: [event('OUTGOING_PAYMENT.PROCESSING')],
    };
  },
  async endHeldExecution(input: { outcome: string; failureReason?: string }) {
    calls.push(`end:${input.outcome}:${input.failureReason ?? '-'}`);
    return { events: [event('OUTGOING_PAYMENT.FAILED')], ended: true };
  },
  async expireQuote() {
    calls.push('expire');
    return { events: [] };
  },
  async completeOutgoingPayment() {
    calls.push('complete');
    return { events: [event('OUTGOING_PAYMENT.COMPLETED')] };
  },
  async deliverWebhooks(input: { eventIds: string[] }) {
    return input.eventIds.map((eventId) => ({ eventId, outcome: { kind: 'DELIVERED' as const, status: 200 } }));
  },
  async checkQuoteProof() {
    const verdict = verdicts.shift() ?? 'OK';
    calls.push(`proof:${verdict}`);
    if (verdict === 'OK') return { authorized: true };
    return {
      authorized: false,
      refusal: { code: 'INVALID_INPUT', message: 'The SCA proof is not correct', details: { errors: [{ field: 'code' }] } },
      burned: verdict === 'BURN',
    };
  },
};

beforeAll(() => quietTemporalRuntime());
beforeEach(async () => {
  mocked = await startMockedWorker(activities);
  ({ env, taskQueue } = mocked);
  calls = [];
  verdicts = [];
}, 120_000);
afterEach(async () => {
  await mocked?.stop();
});

/** A payment held by the SCA gate (its execute answered held) and its challenge's workflow. */
async function heldPaymentWithChallenge(expiresInMs = 300_000) {
  const id = randomUUID();
  const quote: QuoteInput = {
    quoteId: `Quote:${id}`,
    transactionId: `Transaction:${id}`,
    platformId: 'Platform:1',
    customerId: 'Customer:1',
    environment: 'SANDBOX',
    lifetimeSeconds: 300,
  };
  const paymentHandle = await env.client.workflow.start<typeof payment>('payment', { workflowId: quote.transactionId, taskQueue, args: [quote] });
  const held = await paymentHandle.executeUpdate(executePaymentUpdate, { args: [{ requestKey: 'key-1' }] });
  expect(held.held).toMatchObject({ gate: 'scaAuthorization' });
  const input: ScaChallengeInput = {
    challengeId: `ScaChallenge:${id}`,
    platformId: 'Platform:1',
    customerId: 'Customer:1',
    quoteId: quote.quoteId,
    transactionId: quote.transactionId,
    kind: 'HELD_EXECUTION',
    factor: 'SMS_OTP',
    expiresInMs,
  };
  const challenge = await env.client.workflow.start<typeof scaChallenge>('scaChallenge', { workflowId: input.challengeId, taskQueue, args: [input] });
  return { paymentHandle, challenge };
}

const signalsSent = async (handle: { fetchHistory(): Promise<{ events?: { signalExternalWorkflowExecutionInitiatedEventAttributes?: unknown }[] | null }> }) =>
  ((await handle.fetchHistory()).events ?? []).filter((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes).length;

test('authorized: the held payment is executed again with the gate passing, once, and completes', async () => {
  const { paymentHandle, challenge } = await heldPaymentWithChallenge();
  const answer = await challenge.executeUpdate(authorizeChallengeUpdate, { args: [{ code: '123456' }] });
  expect(answer).toMatchObject({ challengeId: challenge.workflowId });
  expect(await challenge.result()).toBe('AUTHORIZED');
  expect(await paymentHandle.result()).toBe('COMPLETED');
  expect(calls).toEqual(['execute', 'proof:OK', 'execute+scaAuthorization', 'complete']);
  expect(await signalsSent(challenge)).toBe(1);
});

test('a wrong proof is refused with its code and the next one may still authorize', async () => {
  verdicts = ['WRONG'];
  const { paymentHandle, challenge } = await heldPaymentWithChallenge();
  await expect(challenge.executeUpdate(authorizeChallengeUpdate, { args: [{ code: '000000' }] })).rejects.toMatchObject({
    cause: { type: 'INVALID_INPUT' },
  });
  await challenge.executeUpdate(authorizeChallengeUpdate, { args: [{ code: '123456' }] });
  expect(await paymentHandle.result()).toBe('COMPLETED');
});

test('the wrong proof that burns the challenge voids it: later proofs are RATE_LIMITED, the payment fails SCA_NOT_COMPLETED', async () => {
  verdicts = ['BURN'];
  const { paymentHandle, challenge } = await heldPaymentWithChallenge();
  await expect(challenge.executeUpdate(authorizeChallengeUpdate, { args: [{ code: '000000' }] })).rejects.toMatchObject({ cause: { type: 'INVALID_INPUT' } });
  expect(await challenge.result()).toBe('VOID');
  expect(await paymentHandle.result()).toBe('REJECTED');
  expect(calls).toEqual(['execute', 'proof:BURN', 'end:REJECTED:SCA_NOT_COMPLETED']);
});

test('unanswered until its expiresAt: lapsed on the durable timer, the payment fails SCA_NOT_COMPLETED, nothing executed', async () => {
  const { paymentHandle, challenge } = await heldPaymentWithChallenge(120_000);
  expect(await challenge.result()).toBe('LAPSED');
  expect(await paymentHandle.result()).toBe('REJECTED');
  expect(calls).toEqual(['execute', 'end:REJECTED:SCA_NOT_COMPLETED']);
  expect(await signalsSent(challenge)).toBe(1);
});

test('resend: three go out, the fourth is RATE_LIMITED; a passkey challenge has nothing to re-send', async () => {
  const { challenge } = await heldPaymentWithChallenge();
  for (let i = 0; i < 3; i++) await challenge.executeUpdate(resendChallengeUpdate, { args: [] });
  await expect(challenge.executeUpdate(resendChallengeUpdate, { args: [] })).rejects.toMatchObject({ cause: { type: 'RATE_LIMITED' } });
  await challenge.executeUpdate(authorizeChallengeUpdate, { args: [{ code: '123456' }] });
  expect(await challenge.result()).toBe('AUTHORIZED');

  const id = randomUUID();
  const passkey = await env.client.workflow.start<typeof scaChallenge>('scaChallenge', {
    workflowId: `ScaChallenge:${id}`,
    taskQueue,
    args: [
      {
        challengeId: `ScaChallenge:${id}`,
        platformId: 'Platform:1',
        customerId: 'Customer:1',
        quoteId: `Quote:${id}`,
        transactionId: `Transaction:${id}`,
        kind: 'QUOTE_FUNDING',
        factor: 'PASSKEY',
        expiresInMs: 60_000,
      },
    ],
  });
  await expect(passkey.executeUpdate(resendChallengeUpdate, { args: [] })).rejects.toMatchObject({ cause: { type: 'CONFLICT' } });
});

test('ten proofs at once take turns: one authorizes, the others find nothing pending; the payment is released once', async () => {
  const { paymentHandle, challenge } = await heldPaymentWithChallenge();
  const answers = await Promise.allSettled(Array.from({ length: 10 }, () => challenge.executeUpdate(authorizeChallengeUpdate, { args: [{ code: '123456' }] })));
  expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
  expect(await paymentHandle.result()).toBe('COMPLETED');
  expect(calls.filter((c) => c.startsWith('proof'))).toEqual(['proof:OK']);
  expect(calls.filter((c) => c === 'execute+scaAuthorization')).toHaveLength(1);
});

import { WithStartWorkflowOperation, WorkflowIdConflictPolicy, type WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { payoutPlan, type PayoutPlan } from '../../src/contexts/payments/domain/payout-scenarios';
import { pullPlan, type PullPlan } from '../../src/contexts/payments/domain/pull-scenarios';
import type { outgoingPayment } from '../../workflows/payments/retired/outgoing-payment';
import type { quote } from '../../workflows/payments/retired/quote';
import { cancelPayoutUpdate, decideHoldUpdate, executePaymentUpdate, executeQuoteUpdate, type QuoteInput } from '../../workflows/payments/definitions';
import type { payment } from '../../workflows/payments/payment';
import { bundledWorker, quietTemporalRuntime, startMockedWorker, type MockedWorker } from '../support/bundled-worker';
import { replayHistory } from '../support/replay';
import { executeUpdateWithStartOnTestServer } from '../support/update-with-start';

// The quote and outgoingPayment state machines with in-memory activities, on the time-skipping
// server: every sandbox payout row with its durable timers (the 6-minute and 1-minute cases
// included), the return 30 s after completion, and quote expiry. The database side is covered by
// test/api/quotes.test.ts.

let env: TestWorkflowEnvironment;
let mocked: MockedWorker | undefined;
let taskQueue: string;
let calls: string[];

const event = (type: string) => ({ eventId: `Webhook:${randomUUID()}`, type });
const activities = {
  async executeQuote(input: { quoteId: string; requestKey?: string; approved?: string[] }) {
    calls.push(input.approved?.length ? `execute+${input.approved.join('+')}` : 'execute');
    if (holdBy && !(input.approved ?? []).includes(holdBy) && !executedQuotes.has(input.quoteId)) {
      return {
        transactionId: `Transaction:${input.quoteId.slice(6)}`,
        held: { gate: holdBy, status: 'PENDING_AUTHORIZATION', expiresInSeconds: 600, expiresAt: '2030-01-01T00:00:00.000Z', reason: 'test' },
      };
    }
    const alreadyExecuted = executedQuotes.has(input.quoteId);
    executedQuotes.add(input.quoteId);
    if (!alreadyExecuted) executedBy.set(input.quoteId, input.requestKey ?? null);
    const by = executedBy.get(input.quoteId) ?? null;
    return {
      alreadyExecuted,
      repeat: alreadyExecuted && by !== input.requestKey,
      ended: alreadyExecuted && !lostExecutions.has(input.quoteId),
      executedBy: by,
      transactionId: `Transaction:${input.quoteId.slice(6)}`,
      plan: nextPlan,
      events: [event('OUTGOING_PAYMENT.PROCESSING')],
    };
  },
  async endHeldExecution(input: { quoteId: string; outcome: string }) {
    calls.push(`end:${input.outcome}`);
    if (lostExecutions.has(input.quoteId)) return { events: [], ended: false, executedAlready: { requestKey: executedBy.get(input.quoteId) ?? undefined } };
    return { events: [event(input.outcome === 'REJECTED' ? 'OUTGOING_PAYMENT.FAILED' : 'OUTGOING_PAYMENT.EXPIRED')] };
  },
  async expireQuote(input: { quoteId: string }) {
    calls.push('expire');
    if (lostExecutions.has(input.quoteId)) return { events: [], executedAlready: { requestKey: executedBy.get(input.quoteId) ?? undefined } };
    return { events: [event('OUTGOING_PAYMENT.EXPIRED')] };
  },
  async completeOutgoingPayment() {
    calls.push('complete');
    return { events: [event('OUTGOING_PAYMENT.COMPLETED')] };
  },
  async failOutgoingPayment(input: { kind: string }) {
    calls.push(`fail:${input.kind}`);
    return { events: [event('OUTGOING_PAYMENT.FAILED')] };
  },
  async returnOutgoingPayment() {
    calls.push('return');
    return { events: [event('OUTGOING_PAYMENT.FAILED')] };
  },
  async returnPulledPayment() {
    calls.push('return-pull');
    return { events: [event('INCOMING_PAYMENT.FAILED')] };
  },
  async deliverWebhooks(input: { eventIds: string[] }) {
    deliveries.push(input.eventIds);
    return input.eventIds.map((eventId) => ({ eventId, outcome: { kind: 'DELIVERED' as const, status: 200 } }));
  },
};
const executedQuotes = new Set<string>();
const executedBy = new Map<string, string | null>();
/** Quotes executed (their payment PROCESSING) by a workflow task the workflow never received: the database is ahead of it. */
const lostExecutions = new Set<string>();
/** When set, executions are held by this gate until it is approved. */
let holdBy: string | undefined;
let deliveries: string[][] = [];
let nextPlan: PayoutPlan = { outcome: 'COMPLETES', afterSeconds: 0 };

beforeAll(() => quietTemporalRuntime());
beforeEach(async () => {
  mocked = await startMockedWorker(activities);
  ({ env, taskQueue } = mocked);
  calls = [];
  deliveries = [];
  holdBy = undefined;
}, 120_000);
afterEach(async () => {
  await mocked?.stop();
});

async function timers(handle: WorkflowHandle): Promise<number[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds));
}

function runPayout(plan: PayoutPlan, pull?: PullPlan) {
  const transactionId = `Transaction:${randomUUID()}`;
  return env.client.workflow.start<typeof outgoingPayment>('outgoingPayment', {
    workflowId: transactionId,
    taskQueue,
    args: [{ transactionId, quoteId: 'Quote:1', platformId: 'Platform:1', customerId: null, plan, ...(pull ? { pull } : {}) }],
  });
}

test.each([
  ['999', ['complete'], [], 'COMPLETED'],
  ['003', ['complete'], [360], 'COMPLETED'],
  ['002', ['fail:EXECUTION_FAILED'], [], 'FAILED'],
  ['004', ['fail:DELIVERY_FAILED'], [], 'FAILED'],
  ['005', ['complete', 'return'], [30], 'FAILED'],
  ['006', ['fail:USER_CANCELLED'], [], 'FAILED'],
  ['007', ['fail:PAYOUT_AND_REFUND_FAILED'], [], 'FAILED'],
  ['008', ['fail:CANCELLED_WHILE_PROCESSING'], [60], 'FAILED'],
  ['118', ['fail:CANCELLED_WHILE_PROCESSING'], [60], 'FAILED'],
])('payout to an account ending %s: %j after timers %j', async (suffix, steps, timerSeconds, result) => {
  const handle = await runPayout(payoutPlan('SANDBOX', `DE89370400440532013${suffix}`));
  expect(await handle.result()).toBe(result);
  expect(calls).toEqual(steps);
  expect(await timers(handle)).toEqual(timerSeconds);
});

function startQuote(lifetimeSeconds: number): QuoteInput {
  return {
    quoteId: `Quote:${randomUUID()}`,
    transactionId: 'Transaction:x',
    platformId: 'Platform:1',
    customerId: null,
    environment: 'SANDBOX',
    lifetimeSeconds,
  };
}

test('a quote not executed in its lifetime expires on its timer and is announced', async () => {
  const input = startQuote(120);
  const handle = await env.client.workflow.start<typeof quote>('quote', { workflowId: input.quoteId, taskQueue, args: [input] });
  expect(await handle.result()).toBe('EXPIRED');
  expect(calls).toEqual(['expire']);
  expect(await timers(handle)).toEqual([120]);
});

test('execution is an update answered with the transaction; the payment runs in its own workflow', async () => {
  const input = startQuote(300);
  nextPlan = { outcome: 'COMPLETES', afterSeconds: 0 };
  const quoteStart = () =>
    new WithStartWorkflowOperation<typeof quote>('quote', {
      workflowId: input.quoteId,
      taskQueue,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      args: [input],
    });
  const answer = await executeUpdateWithStartOnTestServer(env.client.workflow, executeQuoteUpdate, { startWorkflowOperation: quoteStart });
  expect(answer.transactionId).toBe(`Transaction:${input.quoteId.slice(6)}`);
  expect(await env.client.workflow.getHandle(input.quoteId).result()).toBe('EXECUTED');
  expect(await env.client.workflow.getHandle(answer.transactionId).result()).toBe('COMPLETED');
  // A later execute (the quote's run has ended) starts a run that finds the execution and only answers.
  const again = await executeUpdateWithStartOnTestServer(env.client.workflow, executeQuoteUpdate, { startWorkflowOperation: quoteStart });
  expect(again.transactionId).toBe(answer.transactionId);
  expect(await env.client.workflow.getHandle(input.quoteId).result()).toBe('EXECUTED');
  expect(calls).toEqual(['execute', 'complete', 'execute']);
});

test('a payout waiting for the rail can be cancelled: failed and refunded; once answered it cannot', async () => {
  const handle = await runPayout(payoutPlan('SANDBOX', '123456003'));
  const answer = await handle.executeUpdate(cancelPayoutUpdate, { args: [{ reason: 'REQUESTED_AFTER_HOURS' }] });
  expect(answer.transactionId).toBe(handle.workflowId);
  expect(await handle.result()).toBe('FAILED');
  expect(calls).toEqual(['fail:CANCELLED_BY_PLATFORM']);

  calls = [];
  const quick = await runPayout(payoutPlan('SANDBOX', '123456005'));
  // Completed at once, then waiting 30 s for the return: too late to cancel.
  await expect(quick.executeUpdate(cancelPayoutUpdate, { args: [{}] })).rejects.toMatchObject({ cause: { type: 'TRANSACTION_NOT_CANCELLABLE' } });
  expect(await quick.result()).toBe('FAILED');
  expect(calls).toEqual(['complete', 'return']);
});

// Pull sources (spec §8, "account that funds an incoming transfer" and source 009): the bank's
// answer to the pull comes before the payout's; an internal destination completes at once.
test.each([
  ['123456999', ['complete'], [], 'COMPLETED'],
  ['123456002', ['fail:PULL_FAILED'], [], 'FAILED'],
  ['123456003', ['fail:PULL_FAILED'], [], 'FAILED'],
  ['123456004', ['fail:PULL_FAILED'], [], 'FAILED'],
  ['123456005', ['fail:PULL_FAILED'], [30], 'FAILED'],
  ['123456009', ['complete', 'return-pull'], [30], 'FAILED'],
])('pull from an account ending %s into an internal account: %j after timers %j', async (accountNumber, steps, timerSeconds, result) => {
  const handle = await runPayout(payoutPlan('SANDBOX', ''), pullPlan('SANDBOX', accountNumber, { returnable: true }));
  expect(await handle.result()).toBe(result);
  expect(calls).toEqual(steps);
  expect(await timers(handle)).toEqual(timerSeconds);
});

test('a 009 pull into an embedded wallet is not returned; a pull then pays out by the destination row', async () => {
  expect(await (await runPayout(payoutPlan('SANDBOX', ''), pullPlan('SANDBOX', '123456009', { returnable: false }))).result()).toBe('COMPLETED');
  expect(calls).toEqual(['complete']);
  calls = [];
  const handle = await runPayout(payoutPlan('SANDBOX', 'DE89370400440532013004'), pullPlan('SANDBOX', '123456999', { returnable: false }));
  expect(await handle.result()).toBe('FAILED');
  expect(calls).toEqual(['fail:DELIVERY_FAILED']);
});

test('a pull still pending at the bank (005) can be cancelled: FAILED with nothing to refund', async () => {
  const handle = await runPayout(payoutPlan('SANDBOX', ''), pullPlan('SANDBOX', '123456005', { returnable: true }));
  await handle.executeUpdate(cancelPayoutUpdate, { args: [{}] });
  expect(await handle.result()).toBe('FAILED');
  expect(calls).toEqual(['fail:CANCELLED_BY_PLATFORM']);
});

test('the payment announces the execution: its events go out with the completion’s, in one local activity; a waiting payment announces at once', async () => {
  const announce = [event('OUTGOING_PAYMENT.PROCESSING'), event('INTERNAL_ACCOUNT.BALANCE_UPDATED')];
  const start = (plan: PayoutPlan) => {
    const transactionId = `Transaction:${randomUUID()}`;
    return env.client.workflow.start<typeof outgoingPayment>('outgoingPayment', {
      workflowId: transactionId,
      taskQueue,
      args: [{ transactionId, quoteId: 'Quote:1', platformId: 'Platform:1', customerId: null, plan, announce }],
    });
  };
  const quick = await start({ outcome: 'COMPLETES', afterSeconds: 0 });
  expect(await quick.result()).toBe('COMPLETED');
  expect(deliveries).toHaveLength(1);
  expect(deliveries[0]!.slice(0, 2)).toEqual(announce.map((e) => e.eventId));
  expect(deliveries[0]).toHaveLength(3);
  const events = (await quick.fetchHistory()).events ?? [];
  expect(events.filter((e) => e.activityTaskScheduledEventAttributes)).toHaveLength(0);
  expect(events.filter((e) => e.workflowTaskCompletedEventAttributes)).toHaveLength(1);

  deliveries = [];
  const slow = await start({ outcome: 'COMPLETES', afterSeconds: 360 });
  expect(await slow.result()).toBe('COMPLETED');
  expect(deliveries.map((d) => d.length)).toEqual([2, 1]);
});

describe("payment: one workflow from the quote to the payment's end (workflow id = transaction id)", () => {
  const paymentInput = (lifetimeSeconds: number): QuoteInput => {
    const quoteId = `Quote:${randomUUID()}`;
    return { quoteId, transactionId: `Transaction:${quoteId.slice(6)}`, platformId: 'Platform:1', customerId: null, environment: 'SANDBOX', lifetimeSeconds };
  };
  const withStart = (input: QuoteInput) =>
    new WithStartWorkflowOperation<typeof payment>('payment', {
      workflowId: input.transactionId,
      taskQueue,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      args: [input],
    });
  const execute = (input: QuoteInput, requestKey: string) =>
    executeUpdateWithStartOnTestServer(env.client.workflow, executePaymentUpdate, {
      args: [{ requestKey }],
      updateId: `execute:${requestKey}`,
      startWorkflowOperation: () => withStart(input),
    });
  const history = async (handle: WorkflowHandle) => (await handle.fetchHistory()).events ?? [];

  test('a quote not executed in its lifetime expires on its timer and is announced', async () => {
    const input = paymentInput(120);
    const handle = await env.client.workflow.start<typeof payment>('payment', { workflowId: input.transactionId, taskQueue, args: [input] });
    expect(await handle.result()).toBe('EXPIRED');
    expect(calls).toEqual(['expire']);
    expect(await timers(handle)).toEqual([120]);
  });

  test("a payout executed and completed: within the template's engine budget (≤ 3 workflow tasks, ≤ 20 events, no activity task)", async () => {
    const input = paymentInput(300);
    nextPlan = { outcome: 'COMPLETES', afterSeconds: 0 };
    await env.client.workflow.start<typeof payment>('payment', { workflowId: input.transactionId, taskQueue, args: [input] });
    const answer = await execute(input, 'key-1');
    expect(answer).toEqual({ transactionId: input.transactionId, repeat: false });
    const handle = env.client.workflow.getHandle(input.transactionId);
    expect(await handle.result()).toBe('COMPLETED');
    expect(calls).toEqual(['execute', 'complete']);
    // The execution's and the completion's events in one first attempt.
    expect(deliveries.map((d) => d.length)).toEqual([2]);
    const events = await history(handle);
    expect(events.filter((e) => e.workflowTaskCompletedEventAttributes).length).toBeLessThanOrEqual(3);
    expect(events.length).toBeLessThanOrEqual(20);
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes)).toHaveLength(0);
    expect(events.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).toHaveLength(0);
  });

  test('another request in the same run is a repeat; after the run ended a new run only answers', async () => {
    const input = paymentInput(300);
    nextPlan = { outcome: 'COMPLETES', afterSeconds: 360 };
    expect(await execute(input, 'key-1')).toMatchObject({ repeat: false });
    expect(await execute(input, 'key-2')).toMatchObject({ repeat: true });
    // The same request again: Temporal answers it from the first outcome, nothing runs.
    expect(await execute(input, 'key-1')).toMatchObject({ repeat: false });
    expect(await env.client.workflow.getHandle(input.transactionId).result()).toBe('COMPLETED');
    expect(calls).toEqual(['execute', 'complete']);
    await execute(input, 'key-3');
    expect(await env.client.workflow.getHandle(input.transactionId).result()).toBe('ANSWERED');
    expect(calls).toEqual(['execute', 'complete', 'execute']);
  });

  test("an execution whose workflow task was lost (the database ahead of the history) is carried on at the quote's expiry, not expired; the history replays", async () => {
    const input = paymentInput(120);
    nextPlan = { outcome: 'COMPLETES', afterSeconds: 0 };
    // What a lost task leaves: its execution step committed (recorded with its request's key), its update never in the history.
    executedQuotes.add(input.quoteId);
    executedBy.set(input.quoteId, 'key-lost');
    lostExecutions.add(input.quoteId);
    const handle = await env.client.workflow.start<typeof payment>('payment', { workflowId: input.transactionId, taskQueue, args: [input] });
    expect(await handle.result()).toBe('COMPLETED');
    expect(calls).toEqual(['expire', 'execute', 'complete']);
    // The recorded execution's events go out with the completion's; nothing announces an expiry.
    expect(deliveries.map((d) => d.length)).toEqual([2]);
    const history = await handle.fetchHistory();
    expect(history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')).toHaveLength(1);
    await replayHistory(readFileSync(process.env.TEST_WORKFLOW_BUNDLE!, 'utf8'), history);
    const file = join(__dirname, '../histories/payment/v5-lost-execution-carried-on.json');
    if (process.env.RECORD_HISTORIES === '1' && !existsSync(file)) writeFileSync(file, `${historyToJSON(history)}\n`);
  });

  test('executions delivered together take turns: one execution step, the others answered as repeats; the patch marker is recorded and the history replays', async () => {
    const input = paymentInput(300);
    nextPlan = { outcome: 'COMPLETES', afterSeconds: 0 };
    // No worker polls this queue yet: the updates wait at the server and reach the workflow together.
    const queue = `burst-${randomUUID()}`;
    const handle = await env.client.workflow.start<typeof payment>('payment', { workflowId: input.transactionId, taskQueue: queue, args: [input] });
    const answers = Promise.all(
      [0, 1, 2, 3, 4].map((i) => handle.executeUpdate(executePaymentUpdate, { args: [{ requestKey: `key-${i}` }], updateId: `execute:key-${i}` })),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { worker } = await bundledWorker(env.nativeConnection, activities, { taskQueue: queue });
    const outcomes = await worker.runUntil(async () => {
      const all = await answers;
      await handle.result();
      return all;
    });
    expect(outcomes.filter((answer) => !answer.repeat)).toHaveLength(1);
    expect(calls).toEqual(['execute', 'complete']);
    const history = await handle.fetchHistory();
    expect(history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')).toHaveLength(1);
    await replayHistory(readFileSync(process.env.TEST_WORKFLOW_BUNDLE!, 'utf8'), history);
    // The replay suite keeps this shape of history (the patch marker mid-run): recorded on request.
    const file = join(__dirname, '../histories/payment/v2-executions-delivered-together.json');
    if (process.env.RECORD_HISTORIES === '1' && !existsSync(file)) writeFileSync(file, `${historyToJSON(history)}\n`);
  });

  test('a slow payout can be cancelled from the moment it is executed', async () => {
    const input = paymentInput(300);
    nextPlan = { outcome: 'COMPLETES', afterSeconds: 360 };
    await execute(input, 'key-1');
    const handle = env.client.workflow.getHandle(input.transactionId);
    await handle.executeUpdate(cancelPayoutUpdate, { args: [{}] });
    expect(await handle.result()).toBe('FAILED');
    expect(calls).toEqual(['execute', 'fail:CANCELLED_BY_PLATFORM']);
  });

  test('before its execution there is nothing to cancel', async () => {
    const input = paymentInput(300);
    const handle = await env.client.workflow.start<typeof payment>('payment', { workflowId: input.transactionId, taskQueue, args: [input] });
    await expect(handle.executeUpdate(cancelPayoutUpdate, { args: [{}] })).rejects.toMatchObject({ cause: { type: 'TRANSACTION_NOT_CANCELLABLE' } });
    await handle.terminate('test done');
  });

  test.each([
    ['APPROVE', ['execute', 'execute+g', 'complete'], 'COMPLETED'],
    ['REJECT', ['execute', 'end:REJECTED'], 'REJECTED'],
  ] as const)('a held payment, %s: %j', async (decision, steps, result) => {
    holdBy = 'g';
    const input = paymentInput(300);
    nextPlan = { outcome: 'COMPLETES', afterSeconds: 0 };
    expect(await execute(input, 'key-1')).toMatchObject({ held: { gate: 'g', status: 'PENDING_AUTHORIZATION' } });
    const handle = env.client.workflow.getHandle(input.transactionId);
    // A decision for a gate that does not hold it is refused before it reaches the history.
    await expect(handle.executeUpdate(decideHoldUpdate, { args: [{ gate: 'other', decision }] })).rejects.toMatchObject({ cause: { type: 'CONFLICT' } });
    await handle.executeUpdate(decideHoldUpdate, { args: [{ gate: 'g', decision }], updateId: 'decision-1' });
    // Retried with its id, the decision is the same one: nothing runs twice.
    await handle.executeUpdate(decideHoldUpdate, { args: [{ gate: 'g', decision }], updateId: 'decision-1' }).catch(() => undefined);
    expect(await handle.result()).toBe(result);
    expect(calls).toEqual(steps);
  });

  test.each([
    ['expires', 'EXPIRED'],
    ['is rejected', 'REJECTED'],
  ] as const)(
    'a held payment whose approval executed in a lost workflow task (the database ahead of the history) is carried on when its hold %s; the history replays',
    async (ending, outcome) => {
      holdBy = 'g';
      const input = paymentInput(300);
      nextPlan = { outcome: 'COMPLETES', afterSeconds: 0 };
      expect(await execute(input, 'key-1')).toMatchObject({ held: { gate: 'g' } });
      const handle = env.client.workflow.getHandle(input.transactionId);
      // What the lost task leaves: the approval's execution committed under the held request's key, the approval never in the history.
      executedQuotes.add(input.quoteId);
      executedBy.set(input.quoteId, 'key-1');
      lostExecutions.add(input.quoteId);
      if (outcome === 'REJECTED') await handle.executeUpdate(decideHoldUpdate, { args: [{ gate: 'g', decision: 'REJECT' }] });
      expect(await handle.result()).toBe('COMPLETED');
      expect(calls).toEqual(['execute', `end:${outcome}`, 'execute', 'complete']);
      // The recorded execution's events go out with the completion's; nothing announces the hold's end.
      expect(deliveries.map((d) => d.length)).toEqual([2]);
      const history = await handle.fetchHistory();
      expect(history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')).toHaveLength(1);
      await replayHistory(readFileSync(process.env.TEST_WORKFLOW_BUNDLE!, 'utf8'), history);
      const file = join(__dirname, `../histories/payment/v6-lost-approval-carried-on-when-the-hold-${ending.replace(' ', '-')}.json`);
      if (process.env.RECORD_HISTORIES === '1' && !existsSync(file)) writeFileSync(file, `${historyToJSON(history)}\n`);
    },
  );

  test("a held payment nobody decides expires on the hold's timer", async () => {
    holdBy = 'g';
    const input = paymentInput(300);
    await execute(input, 'key-1');
    const handle = env.client.workflow.getHandle(input.transactionId);
    expect(await handle.result()).toBe('EXPIRED');
    expect(calls).toEqual(['execute', 'end:EXPIRED']);
    expect(await timers(handle)).toContain(600);
  });
});

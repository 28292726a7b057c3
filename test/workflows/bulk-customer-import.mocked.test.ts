import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { bulkCustomerImport } from '../../workflows/customers/bulk-customer-import';
import { BULK_IMPORT_BATCH_ROWS, BULK_IMPORT_BATCHES_PER_RUN } from '../../workflows/customers/definitions';
import { quietTemporalRuntime, startMockedWorker, type MockedWorker } from '../support/bundled-worker';

// The bulkCustomerImport workflow with in-memory activities: which rows each batch asks for,
// that a 10,000-row job is split into runs of bounded history (continue-as-new), that a batch
// lost with its worker is asked for again (the real activity skips rows already done:
// bulk-customer-import.test.ts), and the webhooks it delivers. The database side is covered by
// bulk-customer-import.test.ts and test/api/bulk-import.test.ts.

let env: TestWorkflowEnvironment;
let mocked: MockedWorker | undefined;
let taskQueue: string;

let totalRows: number;
let calls: string[];
let batches: [number, number][];
let delivered: string[];
/** Batches (by first row) whose first attempt fails, as when its worker dies. */
let lost: Set<number>;

const activities = {
  async beginBulkCustomerImport() {
    calls.push('begin');
    return { totalRows };
  },
  async importBulkCustomerRows(input: { jobId: string; fromRow: number; toRow: number }) {
    batches.push([input.fromRow, input.toRow]);
    if (lost.delete(input.fromRow)) throw new Error('the worker went away mid-batch');
    return { events: [{ eventId: `Webhook:rows-${input.fromRow}`, type: 'CUSTOMER.KYC_APPROVED' }] };
  },
  async finishBulkCustomerImport() {
    calls.push('finish');
    return { status: 'COMPLETED', events: [{ eventId: 'Webhook:job', type: 'BULK_UPLOAD.COMPLETED' }] };
  },
  async deliverWebhooks(input: { eventIds: string[] }) {
    delivered.push(...input.eventIds);
    return input.eventIds.map((eventId) => ({ eventId, outcome: { kind: 'DELIVERED' as const, status: 200 } }));
  },
  async deliverWebhook() {
    return { kind: 'DELIVERED' as const, status: 200 };
  },
  async markWebhookFailed() {},
};

beforeAll(() => quietTemporalRuntime());

beforeEach(async () => {
  mocked = await startMockedWorker(activities);
  ({ env, taskQueue } = mocked);
  calls = [];
  batches = [];
  delivered = [];
  lost = new Set();
}, 120_000);

afterEach(async () => {
  await mocked?.stop();
});

/** The history length of every run of a workflow, first to last, following continue-as-new. */
async function runLengths(workflowId: string, firstRunId: string): Promise<number[]> {
  const lengths: number[] = [];
  for (let runId: string | undefined = firstRunId; runId;) {
    const events: { workflowExecutionContinuedAsNewEventAttributes?: { newExecutionRunId?: string | null } | null }[] =
      (await env.client.workflow.getHandle(workflowId, runId, { followRuns: false }).fetchHistory()).events ?? [];
    lengths.push(events.length);
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return lengths;
}

const expectedBatches = (rows: number) =>
  Array.from({ length: Math.ceil(rows / BULK_IMPORT_BATCH_ROWS) }, (_, i): [number, number] => [
    i * BULK_IMPORT_BATCH_ROWS + 1,
    Math.min(rows, (i + 1) * BULK_IMPORT_BATCH_ROWS),
  ]);

test('a 10,000-row job: every row asked for once, in batches, over runs of bounded history; the job webhook last', async () => {
  totalRows = 10_000;
  const handle = await env.client.workflow.start<typeof bulkCustomerImport>('bulkCustomerImport', {
    taskQueue,
    workflowId: 'Job:mocked-10k',
    args: [{ jobId: 'Job:mocked-10k', platformId: 'Platform:p' }],
  });
  expect(await handle.result()).toEqual({ jobId: 'Job:mocked-10k', status: 'COMPLETED' });

  expect(batches).toEqual(expectedBatches(10_000));
  expect(calls).toEqual(['begin', 'finish']);
  expect(delivered).toEqual([...expectedBatches(10_000).map(([from]) => `Webhook:rows-${from}`), 'Webhook:job']);

  const lengths = await runLengths('Job:mocked-10k', handle.firstExecutionRunId);
  const runs = Math.ceil(10_000 / BULK_IMPORT_BATCH_ROWS / BULK_IMPORT_BATCHES_PER_RUN);
  expect(lengths).toHaveLength(runs);
  // Each run: its batches and their deliveries (two activities each, a few events apiece), never the file.
  for (const length of lengths) expect(length).toBeLessThan(BULK_IMPORT_BATCHES_PER_RUN * 16);
}, 120_000);

test('a batch lost with its worker is asked for again, the same rows; the rest are not repeated', async () => {
  totalRows = 250;
  lost = new Set([101]);
  const handle = await env.client.workflow.start<typeof bulkCustomerImport>('bulkCustomerImport', {
    taskQueue,
    workflowId: 'Job:mocked-lost',
    args: [{ jobId: 'Job:mocked-lost', platformId: 'Platform:p' }],
  });
  await handle.result();
  expect(batches).toEqual([
    [1, 100],
    [101, 200],
    [101, 200],
    [201, 250],
  ]);
  expect(delivered).toEqual(['Webhook:rows-1', 'Webhook:rows-101', 'Webhook:rows-201', 'Webhook:job']);
}, 60_000);

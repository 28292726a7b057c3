import { continueAsNew, proxyActivities, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { CustomerActivities } from '../../activities/customers';
import { BusinessStatusKey } from '../../src/temporal/search-attributes';
import { deliverEvents } from '../webhooks/announce';
import { BULK_IMPORT_BATCH_ROWS, BULK_IMPORT_BATCHES_PER_RUN, type BulkCustomerImportInput, type BulkCustomerImportResult } from './definitions';

const retry = { initialInterval: '1 second', maximumInterval: '30 seconds' } as const;
const activities = proxyActivities<CustomerActivities>({ startToCloseTimeout: '30 seconds', retry });
// A batch is BULK_IMPORT_BATCH_ROWS short transactions, with a heartbeat after each: a worker
// that dies mid-batch is noticed within the heartbeat timeout, and the retry skips rows done.
const { importBulkCustomerRows } = proxyActivities<CustomerActivities>({ startToCloseTimeout: '5 minutes', heartbeatTimeout: '30 seconds', retry });

/**
 * One bulk customer import (workflow id = job id). The rows wait in PostgreSQL; the workflow
 * carries only row numbers: it processes them in batches, one activity each, and delivers the
 * webhooks the created customers raised after each batch. Every BULK_IMPORT_BATCHES_PER_RUN
 * batches (or sooner, when the server suggests it) it continues as new from the next row, so
 * no run's history grows with the file. It ends with the job COMPLETED or FAILED and its
 * BULK_UPLOAD.* webhook. A worker that dies mid-batch leaves the batch to be retried: rows
 * already processed are skipped, and each row's customer id derives from the job and the row.
 */
export async function bulkCustomerImport(input: BulkCustomerImportInput): Promise<BulkCustomerImportResult> {
  const { jobId, platformId } = input;
  let totalRows = input.totalRows;
  if (totalRows === undefined) {
    ({ totalRows } = await activities.beginBulkCustomerImport({ jobId }));
    upsertSearchAttributes([{ key: BusinessStatusKey, value: 'PROCESSING' }]);
  }
  let nextRow = input.nextRow ?? 1;
  for (let batches = 0; nextRow <= totalRows; batches++) {
    if (batches >= BULK_IMPORT_BATCHES_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof bulkCustomerImport>({ jobId, platformId, totalRows, nextRow });
    }
    const toRow = Math.min(totalRows, nextRow + BULK_IMPORT_BATCH_ROWS - 1);
    const { events } = await importBulkCustomerRows({ jobId, fromRow: nextRow, toRow });
    await deliverEvents(platformId, events);
    nextRow = toRow + 1;
  }
  const { status, events } = await activities.finishBulkCustomerImport({ jobId });
  upsertSearchAttributes([{ key: BusinessStatusKey, value: status }]);
  await deliverEvents(platformId, events);
  return { jobId, status };
}

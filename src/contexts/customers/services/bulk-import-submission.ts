import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { startBulkCustomerImport } from '../starters/bulk-customer-import';
import type { BulkImportStatus } from '../entities';
import { createBulkImportJob, discardBulkImportJob } from './bulk-import';

/**
 * POST /customers/bulk/csv: the job recorded, then its workflow started. Nothing will process a
 * new job whose start failed: it is discarded (the upload leaves nothing behind and may be sent
 * again). A job found again may be importing already (the server refuses a second start); if
 * not, the sweep starts it. A job found again is answered as its first attempt was: PENDING.
 */
export async function submitBulkImport(
  em: EntityManager,
  engine: { temporal: Client; taskQueue?: string },
  input: Parameters<typeof createBulkImportJob>[1],
): Promise<{ jobId: string; status: BulkImportStatus }> {
  const { job, foundAgain } = await createBulkImportJob(em, input);
  try {
    // Found again, its workflow may have started already: the server refuses a second start of the job.
    await startBulkCustomerImport(engine.temporal, { jobId: job.id, platformId: input.platformId }, { taskQueue: engine.taskQueue });
  } catch (err) {
    // Nothing will process a new job: the upload leaves nothing behind, and the caller may send it again.
    // A job found again may be importing already; if not, the sweep starts it.
    if (!foundAgain) await discardBulkImportJob(em.fork(), job.id);
    throw err;
  }
  // A job found again is answered as its first attempt was: accepted, PENDING (GET the job for its progress).
  return { jobId: job.id, status: foundAgain ? 'PENDING' : job.status };
}

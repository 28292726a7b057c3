import { BulkImportJob } from '../entities';
import { findOverdue, type StrandedStart } from '../../../temporal/start-stranded';
import { startBulkCustomerImport } from '../starters/bulk-customer-import';

/**
 * An upload is recorded PENDING first and its workflow started after the commit. If the API dies
 * in between, nothing would import the job. These are jobs still PENDING after the grace period;
 * the workflow id is the job id and a second start is refused by the server, so a job already
 * importing (or imported) is never imported twice.
 */
export const strandedBulkImports: StrandedStart<BulkImportJob> = {
  name: 'bulk customer imports',
  find: (em, scope) => findOverdue(em, BulkImportJob, { status: 'PENDING' }, scope, { field: 'createdAt' }),
  idOf: (job) => job.id,
  start: (client, job, { taskQueue }) => startBulkCustomerImport(client, { jobId: job.id, platformId: job.platformId }, { taskQueue }),
};

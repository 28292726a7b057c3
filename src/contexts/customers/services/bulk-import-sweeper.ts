import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { logger } from '../../../logger';
import { startBulkCustomerImport } from '../../../temporal/starters/bulk-customer-import';
import { BulkImportJob } from '../entities';

/**
 * An upload is recorded PENDING first and its workflow started after the commit. If the API dies
 * in between, nothing would import the job. This starts the workflow of jobs still PENDING after
 * a grace period; the workflow id is the job id and a second start is refused by the server, so a
 * job already importing (or imported) is never imported twice.
 */
export async function startStrandedBulkImports(
  orm: MikroORM,
  client: Client,
  options: { graceMs?: number; taskQueue?: string; limit?: number } = {},
): Promise<string[]> {
  const cutoff = new Date(Date.now() - (options.graceMs ?? 60_000));
  const stranded = await orm.em
    .fork()
    .find(BulkImportJob, { status: 'PENDING', createdAt: { $lt: cutoff } }, { orderBy: { createdAt: 'asc' }, limit: options.limit ?? 100 });
  const started: string[] = [];
  for (const job of stranded) {
    try {
      await startBulkCustomerImport(client, { jobId: job.id, platformId: job.platformId }, { taskQueue: options.taskQueue });
      started.push(job.id);
    } catch (err) {
      logger.warn({ err, jobId: job.id }, 'could not start a stranded bulk import');
    }
  }
  return started;
}

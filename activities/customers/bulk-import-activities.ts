import { Context } from '@temporalio/activity';
import { beginBulkImport, finishBulkImport, importBulkRows } from '../../src/contexts/customers/services/bulk-import';
import type { ActivityDeps } from '../deps';

/** The steps of a bulk customer import (workflows/customers/bulk-customer-import.ts); each may run again and does nothing twice. */
export function bulkImportActivities({ orm, masterKey }: ActivityDeps) {
  return {
    /** The job is PROCESSING; how many rows it has. */
    async beginBulkCustomerImport(input: { jobId: string }): Promise<{ totalRows: number }> {
      return beginBulkImport(orm.em.fork(), input.jobId);
    },

    /** One batch of rows (1-based, inclusive) through POST /customers' rules; rows already processed are skipped. */
    async importBulkCustomerRows(input: { jobId: string; fromRow: number; toRow: number }): Promise<{ events: { eventId: string; type: string }[] }> {
      return importBulkRows(orm.em.fork(), { ...input, masterKey, onRow: () => Context.current().heartbeat() });
    },

    /** COMPLETED or FAILED, with its BULK_UPLOAD.* event recorded. */
    async finishBulkCustomerImport(input: { jobId: string }): Promise<{ status: string; events: { eventId: string; type: string }[] }> {
      return finishBulkImport(orm.em.fork(), input.jobId);
    },
  };
}

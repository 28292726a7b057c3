import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { SignatureOf } from '../../../temporal/workflow-kind';
import { BULK_CUSTOMER_IMPORT_WORKFLOW, type BulkCustomerImportInput } from '../../../../workflows/customers/definitions';
import { rethrowAsDomainError } from '../../../temporal/failures';
import { BusinessStatusKey, PlatformIdKey } from '../../../temporal/search-attributes';
import { startTaskQueue } from '../../../temporal/task-queue-settings';

/**
 * Starts the import of an uploaded job (workflow id = job id; PlatformId and BusinessStatus as
 * search attributes). A job is imported once: a second start of the same job id is refused by
 * the server and ignored here, since the first one is already doing the work.
 */
export async function startBulkCustomerImport(
  client: Client,
  input: Pick<BulkCustomerImportInput, 'jobId' | 'platformId'>,
  options: { taskQueue?: string } = {},
): Promise<void> {
  try {
    await client.workflow.start<SignatureOf<typeof BULK_CUSTOMER_IMPORT_WORKFLOW>>(BULK_CUSTOMER_IMPORT_WORKFLOW.type, {
      workflowId: input.jobId,
      taskQueue: startTaskQueue(BULK_CUSTOMER_IMPORT_WORKFLOW, options.taskQueue),
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      args: [{ jobId: input.jobId, platformId: input.platformId }],
      typedSearchAttributes: [
        { key: PlatformIdKey, value: input.platformId },
        { key: BusinessStatusKey, value: 'PENDING' },
      ],
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return;
    rethrowAsDomainError(err);
  }
}

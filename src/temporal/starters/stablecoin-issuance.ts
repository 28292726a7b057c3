import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { stablecoinIssuance } from '../../../workflows/stablecoins/stablecoin-issuance';
import type { StablecoinTiming } from '../../../workflows/stablecoins/definitions';
import { PlatformIdKey, StablecoinIdKey } from '../search-attributes';
import { TASK_QUEUE } from '../task-queue';

/**
 * The issuance workflow of a registered token (workflow id = the stablecoin id). Starting it
 * again joins the run there is; after it ended, a new run finds the issuance final and stops.
 */
export async function startStablecoinIssuance(
  client: Client,
  coin: { id: string; platformId: string },
  timing: StablecoinTiming,
  options: { taskQueue?: string } = {},
): Promise<void> {
  await client.workflow.start<typeof stablecoinIssuance>('stablecoinIssuance', {
    workflowId: coin.id,
    taskQueue: options.taskQueue ?? TASK_QUEUE,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    args: [{ stablecoinId: coin.id, platformId: coin.platformId, timing }],
    typedSearchAttributes: [
      { key: PlatformIdKey, value: coin.platformId },
      { key: StablecoinIdKey, value: coin.id },
    ],
  });
}

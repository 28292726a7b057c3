import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { SignatureOf } from '../../../temporal/workflow-kind';
import { STABLECOIN_ISSUANCE_WORKFLOW, type StablecoinTiming } from '../../../../workflows/stablecoins/definitions';
import { PlatformIdKey, StablecoinIdKey } from '../../../temporal/search-attributes';
import { joiningStart } from '../../../temporal/joining-start';

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
  await client.workflow.start<SignatureOf<typeof STABLECOIN_ISSUANCE_WORKFLOW>>(
    STABLECOIN_ISSUANCE_WORKFLOW.type,
    joiningStart({
      workflow: STABLECOIN_ISSUANCE_WORKFLOW,
      workflowId: coin.id,
      taskQueue: options.taskQueue,
      reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      args: [{ stablecoinId: coin.id, platformId: coin.platformId, timing }],
      searchAttributes: [
        { key: PlatformIdKey, value: coin.platformId },
        { key: StablecoinIdKey, value: coin.id },
      ],
    }),
  );
}

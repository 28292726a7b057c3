import { proxyActivities, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { StablecoinActivities } from '../../activities/stablecoins';
import { BusinessStatusKey } from '../../src/temporal/search-attributes';
import type { StablecoinIssuanceInput } from './definitions';

const activities = proxyActivities<StablecoinActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * The issuance of one registered token (workflow id = the stablecoin id): the provider reviews
 * it (PENDING_REVIEW → PROVISIONING or REJECTED), then provisions it (PROVISIONED or FAILED).
 * Each wait is a durable timer; each answer is recorded by one activity that takes a step only
 * from the status it expects, so a repeated step changes nothing.
 */
export async function stablecoinIssuance(input: StablecoinIssuanceInput): Promise<{ issuanceStatus: string }> {
  const waits: Record<string, number> = { PENDING_REVIEW: input.timing.reviewSeconds, PROVISIONING: input.timing.provisioningSeconds };
  let status = await activities.stablecoinIssuanceStatus({ stablecoinId: input.stablecoinId });
  while (status in waits) {
    upsertSearchAttributes([{ key: BusinessStatusKey, value: status }]);
    await sleep(waits[status]! * 1000);
    status = await activities.advanceStablecoinIssuance({ stablecoinId: input.stablecoinId });
  }
  upsertSearchAttributes([{ key: BusinessStatusKey, value: status }]);
  return { issuanceStatus: status };
}

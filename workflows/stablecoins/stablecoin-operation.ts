import { allHandlersFinished, ApplicationFailure, condition, proxyActivities, setHandler, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { StablecoinActivities } from '../../activities/stablecoins';
import { BusinessStatusKey } from '../../src/temporal/search-attributes';
import { asApplicationFailure } from '../update-failures';
import { fundStablecoinOperationUpdate, submitStablecoinOperationUpdate, type StablecoinOperationInput, type StablecoinStepOutcome } from './definitions';

const activities = proxyActivities<StablecoinActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const FINAL = ['COMPLETED', 'FAILED', 'EXPIRED'];

/**
 * One mint or burn (workflow id = the operation id). It submits the operation to the provider
 * and answers the create request's update with where it then stands; an operation that waits for funds
 * waits for the funding update or the end of its window (a durable timer), whichever comes first;
 * then the provider takes the order up and finishes it, and the last step posts the ledger entry.
 */
export async function stablecoinOperation(input: StablecoinOperationInput): Promise<{ status: string }> {
  const { operationId } = input;
  let outcome: StablecoinStepOutcome | undefined;
  let funded = false;
  const record = (next: StablecoinStepOutcome) => {
    if (next.status !== outcome?.status) upsertSearchAttributes([{ key: BusinessStatusKey, value: next.status }]);
    outcome = next;
  };

  // The submission's outcome, refusal included: the API answers a refusal from the stored operation.
  setHandler(submitStablecoinOperationUpdate, async () => {
    await condition(() => outcome !== undefined);
    return outcome!;
  });
  setHandler(fundStablecoinOperationUpdate, async () => {
    try {
      const next = await activities.recordStablecoinFunding({ operationId });
      funded = true;
      return next;
    } catch (err) {
      throw asApplicationFailure(err);
    }
  });

  record(await activities.submitStablecoinOperation({ operationId, fundingWindowSeconds: input.timing.fundingWindowSeconds }));
  if (outcome!.status === 'PENDING_FUNDING') {
    const arrived = await condition(() => funded, Math.max(1, outcome!.fundingWindowMs ?? 0));
    record(arrived ? { status: 'PENDING_PROVIDER' } : await activities.expireStablecoinOperation({ operationId }));
  }
  if (outcome!.status === 'PENDING_PROVIDER') {
    await sleep(input.timing.providerSeconds * 1000);
    record(await activities.startStablecoinProcessing({ operationId }));
  }
  if (outcome!.status === 'PROCESSING') {
    await sleep(input.timing.settlementSeconds * 1000);
    record(await activities.settleStablecoinOperation({ operationId }));
  }
  await condition(allHandlersFinished);
  if (!FINAL.includes(outcome!.status))
    throw ApplicationFailure.create({ message: `operation ${operationId} stopped at ${outcome!.status}`, nonRetryable: true });
  return { status: outcome!.status };
}
